package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.GetAnswer;
import dev.flinks3.transfer.RangeStream;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.options.S3Options;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.SdkGlobalTime;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.metrics.MetricCollector;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.s3.S3Utilities;
import software.amazon.awssdk.services.s3.model.GetUrlRequest;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * A ranged GET sent on the blocking HTTP client without the SDK's request pipeline: the request is signed with
 * the SDK's own SigV4 signer ({@link AwsV4HttpSigner}, unsigned payload, as the SDK signs S3 requests) with the
 * client's credentials, sent to the URL the SDK's endpoint rules give for the bucket ({@link S3Utilities#getUrl},
 * so path-style access, the endpoint and the region are the client's), and its body is read from the socket
 * straight into the caller's buffer ({@link #read}) or handed to the caller as a stream ({@link #open}), on the
 * thread that calls. A GET of 16 KiB costs about half the client CPU of the SDK's pipeline for the same request,
 * which is what a reader doing one small GET after the other (a state backend's point lookups) pays per read.
 *
 * <p>Only the plain answer is taken: a {@code 206 Partial Content} whose {@code Content-Range} starts at the byte
 * asked for, whose body arrives in full and which carries no checksum of a whole object. Anything else (an error
 * answer, a redirect, a server that ignored the range, a connection failure, a body cut short, the attempt
 * timeout) returns {@code null} and the caller sends the same GET through the SDK's pipeline, which retries,
 * translates errors and reads what servers answer wrongly as every other request does; a throttled attempt first
 * waits the SDK's throttling backoff. A failure therefore costs one extra attempt, never a different result. The
 * attempt timeout ({@link S3Options#REQUEST_ATTEMPT_TIMEOUT}) aborts a direct attempt as it aborts the SDK's. Counted in
 * the {@link S3RequestMetrics} like the SDK's GetObject calls. Thread-safe.
 */
final class DirectRangedGet {

    private static final Logger LOG = LoggerFactory.getLogger(DirectRangedGet.class);

    /** S3 Express One Zone directory buckets sign with session credentials of their own (CreateSession). */
    private static final String DIRECTORY_BUCKET_SUFFIX = "--x-s3";

    private static final AwsV4HttpSigner SIGNER = AwsV4HttpSigner.create();

    /** Error codes of a refused signature (S3 API reference, Error responses). */
    private static final java.util.Set<String> SIGNATURE_REFUSED =
            java.util.Set.of("SignatureDoesNotMatch", "AuthorizationHeaderMalformed");

    /** How much of an error answer is read for its code. */
    private static final int ERROR_BODY_BYTES = 4096;

    private static final String CHECKSUM_HEADER_PREFIX = "x-amz-checksum-";

    /** Bytes of each thread's staging array for direct buffers: one read of the socket's stream. */
    private static final int STAGING_BYTES = 64 * 1024;

    private static final ThreadLocal<byte[]> STAGING = ThreadLocal.withInitial(() -> new byte[STAGING_BYTES]);

    /** Bytes a direct GET into a file copies from the socket per write. */
    private static final int FILE_CHUNK_BYTES = 256 * 1024;

    /** The {@code User-Agent} of direct GETs, so a server's log tells them from the SDK's. */
    static final String USER_AGENT = "flinks3/direct-ranged-get";

    private final SdkHttpClient http;
    private final AwsCredentialsProvider credentials;
    private final String signingRegion;
    private final S3Utilities urls;
    private final ScheduledExecutorService scheduler;
    private final Duration attemptTimeout;
    private final S3RequestMetrics metrics;
    private final BooleanSupplier asksChecksum;
    private final BackoffStrategy throttlingBackoff;
    private final Map<String, String> bucketUrls = new ConcurrentHashMap<>();
    private volatile boolean stopped;

    /**
     * @param http the blocking HTTP client (its pool, timeouts, trust and proxy); not owned
     * @param credentials the client's credentials provider
     * @param signingRegion the region the client signs with, e.g. {@code us-east-1}
     * @param urls the client's URL builder ({@code S3AsyncClient.utilities()})
     * @param scheduler runs the abort of an attempt that outlasts {@code attemptTimeout}; not owned
     * @param attemptTimeout how long one attempt may take, or {@code null} for no limit but the socket's
     * @param metrics where requests and failed attempts are counted
     * @param asksChecksum whether GETs ask for the object's checksum now ({@code x-amz-checksum-mode}; only those
     *     from byte 0, see {@link FlexibleChecksums#checksumCanCover}); an answer that carries a whole object's is
     *     left to the SDK's pipeline, which checks it
     * @param throttlingBackoff the wait after a throttled direct GET (503 SlowDown, 429) before the SDK sends it
     *     again, as the SDK waits before a retry after throttling
     */
    DirectRangedGet(
            SdkHttpClient http,
            AwsCredentialsProvider credentials,
            String signingRegion,
            S3Utilities urls,
            ScheduledExecutorService scheduler,
            Duration attemptTimeout,
            S3RequestMetrics metrics,
            BooleanSupplier asksChecksum,
            BackoffStrategy throttlingBackoff) {
        this.http = http;
        this.credentials = credentials;
        this.signingRegion = signingRegion;
        this.urls = urls;
        this.scheduler = scheduler;
        this.attemptTimeout = attemptTimeout;
        this.metrics = metrics;
        this.asksChecksum = asksChecksum;
        this.throttlingBackoff = throttlingBackoff;
    }

    /**
     * Copies bytes {@code [start, start + dst.remaining())} of the object into {@code dst} from its position on
     * (its position and limit are not moved), or fewer where the object ends first.
     *
     * @param ifMatch the ETag the object must still have, sent as {@code If-Match}; {@code null} for none
     * @return what was copied, or {@code null} if this attempt did not get a plain answer and the caller is to
     *     send the GET through the SDK's pipeline (then {@code dst}'s bytes are undefined)
     */
    GetAnswer read(S3Location location, long start, ByteBuffer dst, String ifMatch) {
        return read(location, start, dst, ifMatch, null);
    }

    /**
     * As {@link #read(S3Location, long, ByteBuffer, String)}, for a GET another thread may abort.
     *
     * @param abort set to what aborts the GET while it is in flight, and back to {@code null} when it ends;
     *     {@code null} for none
     */
    GetAnswer read(S3Location location, long start, ByteBuffer dst, String ifMatch, AtomicReference<Runnable> abort) {
        try {
            return readAbortable(location, start, dst, ifMatch, abort);
        } finally {
            if (abort != null) {
                abort.set(null);
            }
        }
    }

    private GetAnswer readAbortable(
            S3Location location, long start, ByteBuffer dst, String ifMatch, AtomicReference<Runnable> abort) {
        long began = System.nanoTime();
        Answer answer = send(location, start, start + dst.remaining(), ifMatch, true, abort);
        if (answer == null) {
            return null;
        }
        long firstByte = System.nanoTime();
        int bytes = (int) answer.bodyBytes;
        boolean complete;
        try (AbortableInputStream in = answer.body) {
            complete = readFully(in, dst, bytes);
            if (!complete) {
                in.abort();
            }
        } catch (IOException | RuntimeException e) {
            answer.body.abort();
            LOG.debug(
                    "The body of a direct GET of {} from byte {} broke; sending it through the SDK",
                    location,
                    start,
                    e);
            complete = false;
        } finally {
            answer.stopTimer();
        }
        if (!complete) {
            return fallback(answer.timedOut() ? S3RetryStrategy.Failure.TIMED_OUT : S3RetryStrategy.Failure.CONNECTION);
        }
        long now = System.nanoTime();
        metrics.directGet(now - began, firstByte - began, now - firstByte, bytes);
        return GetAnswer.delivered(bytes, answer.objectLength, answer.eTag);
    }

    /**
     * Opens bytes {@code [start, endExclusive)} of the object, or fewer where it ends first, as a stream the caller
     * reads from the socket on its own thread.
     *
     * @param ifMatch the ETag the object must still have, sent as {@code If-Match}; {@code null} for none
     * @return the body, or {@code null} if this attempt did not get a plain answer and the caller is to send the
     *     GET through the SDK's pipeline
     */
    RangeStream open(S3Location location, long start, long endExclusive, String ifMatch) {
        long began = System.nanoTime();
        Answer answer = send(location, start, endExclusive, ifMatch, false, null);
        if (answer == null) {
            return null;
        }
        // The body's time and bytes are the reader's; the request is counted at its headers.
        long headers = System.nanoTime() - began;
        metrics.directGet(headers, headers, -1, 0);
        return new DirectRangeStream(answer, location, metrics);
    }

    /**
     * Writes bytes {@code [start, endExclusive)} of the object (or fewer where it ends first) into {@code file} at the
     * same offset, read from the socket in chunks of {@value #FILE_CHUNK_BYTES} bytes; nothing more is buffered.
     *
     * @param ifMatch the ETag the object must still have, sent as {@code If-Match}; {@code null} for none
     * @param abort set to what aborts the GET while it is in flight, and back to {@code null} when it ends
     * @return what was written, or {@code null} if this attempt did not get a plain answer or its body broke, and
     *     the caller is to send the GET through the SDK's pipeline (which writes the range again from its start)
     */
    GetAnswer readIntoFile(
            S3Location location,
            long start,
            long endExclusive,
            Path file,
            String ifMatch,
            AtomicReference<Runnable> abort) {
        RangeStream body = open(location, start, endExclusive, ifMatch);
        if (body == null) {
            return null;
        }
        abort.set(body::abort);
        byte[] chunk = new byte[FILE_CHUNK_BYTES];
        long written = 0;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            int n;
            while ((n = body.read(chunk)) > 0) {
                ByteBuffer bytes = ByteBuffer.wrap(chunk, 0, n);
                while (bytes.hasRemaining()) {
                    written += channel.write(bytes, start + written);
                }
            }
            body.close();
        } catch (IOException | RuntimeException e) {
            body.abort();
            LOG.debug("A direct GET of {} into {} broke; sending it through the SDK", location, file, e);
            return null;
        } finally {
            abort.set(null);
        }
        return GetAnswer.delivered(written, body.objectLength(), body.eTag());
    }

    /**
     * Signs and sends the GET and checks its headers: the answer with its body still to read, or {@code null}
     * (counted as a failed attempt) if it is not a plain 206 of the bytes asked for.
     *
     * @param timeBody whether the attempt timeout keeps running while the body is read (until {@link
     *     Answer#stopTimer()}); else it stops at the headers, as the SDK's for a body handed to the caller
     */
    private Answer send(
            S3Location location,
            long start,
            long endExclusive,
            String ifMatch,
            boolean timeBody,
            AtomicReference<Runnable> abort) {
        if (stopped || location.bucket().endsWith(DIRECTORY_BUCKET_SUFFIX) || !plainPath(location.key())) {
            return null;
        }
        boolean askChecksum = asksChecksum.getAsBoolean() && FlexibleChecksums.checksumCanCover(start);
        SdkHttpRequest request;
        try {
            request = signed(location, start, endExclusive, ifMatch, askChecksum);
        } catch (RuntimeException e) {
            // Credentials that cannot be resolved or sign nothing (anonymous): the SDK's pipeline says why.
            LOG.debug("Could not sign a direct GET of {}; sending it through the SDK", location, e);
            return null;
        }
        if (request == null) {
            return null;
        }
        // The blocking client reports its pool (leased and idle connections) into the collector: the pool's gauges
        // are kept by what the GETs that use it most report, not only by the few sent through the SDK's pipeline.
        // One GET in a while reports, not each: a reading locks the pool.
        MetricCollector poolReport =
                metrics.httpPools().blockingReportDue() ? MetricCollector.create("HttpClient") : null;
        HttpExecuteRequest.Builder execute = HttpExecuteRequest.builder().request(request);
        if (poolReport != null) {
            execute.metricCollector(poolReport);
        }
        ExecutableHttpRequest call = http.prepareRequest(execute.build());
        if (abort != null) {
            abort.set(call::abort);
        }
        AttemptTimer timeout = attemptTimeout == null ? null : new AttemptTimer(scheduler, attemptTimeout, call::abort);
        AbortableInputStream body = null;
        boolean handedOver = false;
        try {
            HttpExecuteResponse response = call.call();
            if (poolReport != null) {
                metrics.httpPools().record(poolReport.collect());
            }
            body = response.responseBody().orElse(null);
            SdkHttpResponse answer = response.httpResponse();
            int status = answer.statusCode();
            if (status != 206 || body == null) {
                if ((status == 400 || status == 403) && body != null) {
                    stopIfSignatureRefused(body, location);
                }
                return fallback(
                        status == 503 || status == 429
                                ? S3RetryStrategy.Failure.THROTTLED
                                : S3RetryStrategy.Failure.ERROR_ANSWER);
            }
            long[] range =
                    contentRange(answer.firstMatchingHeader("Content-Range").orElse(null));
            long declared = answer.firstMatchingHeader("Content-Length")
                    .map(DirectRangedGet::parseLength)
                    .orElse(-1L);
            if (range == null
                    || range[0] != start
                    || declared != range[1] - range[0] + 1
                    || declared > endExclusive - start
                    || hasFullObjectChecksum(answer)) {
                // A checksum of the whole object is checked by the SDK's pipeline, which reads such bodies.
                return fallback(S3RetryStrategy.Failure.ERROR_ANSWER);
            }
            Answer plain = new Answer(
                    body,
                    declared,
                    range[2],
                    answer.firstMatchingHeader("ETag").orElse(null),
                    timeBody ? timeout : null);
            body = null;
            handedOver = timeBody;
            return plain;
        } catch (IOException | RuntimeException e) {
            boolean timedOut = timeout != null && timeout.fired();
            LOG.debug("Direct GET of {} from byte {} failed; sending it through the SDK", location, start, e);
            return fallback(timedOut ? S3RetryStrategy.Failure.TIMED_OUT : S3RetryStrategy.Failure.CONNECTION);
        } finally {
            if (body != null) {
                body.abort();
            }
            if (timeout != null && !handedOver) {
                timeout.stop();
            }
        }
    }

    /**
     * Whether the key's path has no empty, {@code .} or {@code ..} segment: HTTP clients and servers may normalize
     * such paths, so the path signed would not be the one served; those keys go through the SDK's pipeline.
     */
    static boolean plainPath(String key) {
        // A scan, not key.split: this runs on every GET.
        int start = 0;
        while (true) {
            int end = key.indexOf('/', start);
            int length = (end < 0 ? key.length() : end) - start;
            if (length == 0
                    || (length == 1 && key.charAt(start) == '.')
                    || (length == 2 && key.charAt(start) == '.' && key.charAt(start + 1) == '.')) {
                return false;
            }
            if (end < 0) {
                return true;
            }
            start = end + 1;
        }
    }

    /**
     * Stops sending direct GETs, with one warning, if the server refused the signature of one: the SDK signs the
     * same request in ways a store may take where it does not take ours (a proxy that rewrites requests, a store
     * that signs differently), and every read would otherwise cost a refused request first.
     */
    private void stopIfSignatureRefused(AbortableInputStream body, S3Location location) {
        String code;
        try {
            byte[] start = body.readNBytes(ERROR_BODY_BYTES);
            code = errorCode(new String(start, java.nio.charset.StandardCharsets.UTF_8));
        } catch (IOException e) {
            return;
        }
        if (SIGNATURE_REFUSED.contains(code) && !stopped) {
            stopped = true;
            LOG.warn(
                    "The server refused the signature of a GET of {} sent without the AWS SDK's request pipeline ({});"
                            + " positional reads and streamed ranges of this filesystem go through the SDK from now on."
                            + " If the SDK's requests are refused as well, check the credentials; if not, set"
                            + " " + S3Options.DIRECT_GETS_ENABLED.key()
                            + ": false so no read tries the direct GET first.",
                    location,
                    code);
        }
    }

    /** The {@code <Code>} of an S3 error body, or {@code ""}. */
    static String errorCode(String xml) {
        int open = xml.indexOf("<Code>");
        int close = open < 0 ? -1 : xml.indexOf("</Code>", open);
        return close < 0 ? "" : xml.substring(open + "<Code>".length(), close).trim();
    }

    /** Whether a signature refusal stopped direct GETs ({@link #stopIfSignatureRefused}). */
    boolean stopped() {
        return stopped;
    }

    /** Whether the answer carries a checksum of a whole object (one of parts ends in {@code -<parts>}). */
    private static boolean hasFullObjectChecksum(SdkHttpResponse answer) {
        for (Map.Entry<String, java.util.List<String>> header : answer.headers().entrySet()) {
            String name = header.getKey();
            if (name.regionMatches(true, 0, CHECKSUM_HEADER_PREFIX, 0, CHECKSUM_HEADER_PREFIX.length())
                    && !name.equalsIgnoreCase("x-amz-checksum-type")) {
                for (String value : header.getValue()) {
                    if (value.indexOf('-') < 0) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * Counts a direct attempt that got no plain answer; the caller sends the GET through the SDK's pipeline. A
     * throttled one first waits as the SDK waits before a retry after throttling (S3 asks a throttled client to
     * slow down), so the throttled server does not get the same GET again at once.
     */
    private <T> T fallback(S3RetryStrategy.Failure failure) {
        // Attempt 2's delay: the SDK's strategies number attempts from 1, and the first waits for nothing.
        Duration wait = failure == S3RetryStrategy.Failure.THROTTLED ? throttlingBackoff.computeDelay(2) : null;
        metrics.directAttemptFailed(failure, wait);
        if (wait != null) {
            try {
                Thread.sleep(wait.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return null;
    }

    /** A plain answer's body, still to read, and what its headers told. */
    static final class Answer {
        final AbortableInputStream body;
        final long bodyBytes;
        final long objectLength;
        final String eTag;
        private final AttemptTimer timer;

        Answer(AbortableInputStream body, long bodyBytes, long objectLength, String eTag, AttemptTimer timer) {
            this.body = body;
            this.bodyBytes = bodyBytes;
            this.objectLength = objectLength;
            this.eTag = eTag;
            this.timer = timer;
        }

        /** Stops the attempt timeout that ran over the body, if one did. */
        void stopTimer() {
            if (timer != null) {
                timer.stop();
            }
        }

        /** Whether the attempt timeout fired while the body was read. */
        boolean timedOut() {
            return timer != null && timer.fired();
        }
    }

    /**
     * The attempt timeout of one direct GET: aborts the call when it fires, and remembers that it fired.
     * The flag is set before the abort, so a read that the abort breaks always sees it (the scheduled task
     * is not done yet while the abort runs, and stopping it then would mark it cancelled).
     */
    static final class AttemptTimer {
        private final AtomicBoolean fired = new AtomicBoolean();
        private final ScheduledFuture<?> future;

        AttemptTimer(ScheduledExecutorService scheduler, Duration timeout, Runnable abort) {
            this.future = scheduler.schedule(
                    () -> {
                        fired.set(true);
                        abort.run();
                    },
                    timeout.toNanos(),
                    TimeUnit.NANOSECONDS);
        }

        /** Stops the timer if it has not fired. */
        void stop() {
            future.cancel(false);
        }

        /** Whether the timeout fired (and aborted the call). */
        boolean fired() {
            return fired.get();
        }
    }

    private static long parseLength(String header) {
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private SdkHttpRequest signed(
            S3Location location, long start, long endExclusive, String ifMatch, boolean askChecksum) {
        AwsCredentialsIdentity identity = credentials.resolveIdentity().join();
        if (identity == null
                || identity.accessKeyId() == null
                || identity.accessKeyId().isEmpty()) {
            return null;
        }
        SdkHttpFullRequest.Builder request = SdkHttpFullRequest.builder()
                .method(SdkHttpMethod.GET)
                .uri(URI.create(bucketUrl(location.bucket()) + SdkHttpUtils.urlEncodeIgnoreSlashes(location.key())))
                .putHeader("Range", "bytes=" + start + "-" + (endExclusive - 1))
                .putHeader("User-Agent", USER_AGENT);
        if (ifMatch != null) {
            request.putHeader("If-Match", ifMatch);
        }
        if (askChecksum) {
            request.putHeader("x-amz-checksum-mode", "ENABLED");
        }
        Clock clock = signingClock();
        return SIGNER.sign(sign -> sign.identity(identity)
                        .request(request.build())
                        .putProperty(HttpSigner.SIGNING_CLOCK, clock)
                        .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, "s3")
                        .putProperty(AwsV4HttpSigner.REGION_NAME, signingRegion)
                        .putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, false)
                        .putProperty(AwsV4FamilyHttpSigner.DOUBLE_URL_ENCODE, false)
                        .putProperty(AwsV4FamilyHttpSigner.NORMALIZE_PATH, false))
                .request();
    }

    /**
     * The clock to sign with: the system's, corrected by the offset the SDK learnt from the server (its retry of a
     * request refused as {@code RequestTimeTooSkewed} sets it from the answer's {@code Date}, see {@link
     * SdkGlobalTime}). So a machine whose clock is off by more than S3's 15 minutes costs one refused direct GET, which
     * the SDK then sends again and corrects, instead of a refused direct GET before every read.
     */
    private static Clock signingClock() {
        int offsetSeconds = SdkGlobalTime.getGlobalTimeOffset();
        return offsetSeconds == 0
                ? Clock.systemUTC()
                : Clock.offset(Clock.systemUTC(), Duration.ofSeconds(-offsetSeconds));
    }

    /** The bucket's URL up to the key (ending in {@code /}), as the SDK's endpoint rules build it. */
    private String bucketUrl(String bucket) {
        return bucketUrls.computeIfAbsent(bucket, b -> {
            String url = urls.getUrl(GetUrlRequest.builder().bucket(b).key("k").build())
                    .toString();
            return url.substring(0, url.length() - 1);
        });
    }

    /** Reads exactly {@code bytes} into {@code dst} from its position; false if the body ends first. */
    private static boolean readFully(InputStream in, ByteBuffer dst, int bytes) throws IOException {
        if (dst.hasArray()) {
            byte[] array = dst.array();
            int offset = dst.arrayOffset() + dst.position();
            int done = 0;
            while (done < bytes) {
                int n = in.read(array, offset + done, bytes - done);
                if (n < 0) {
                    return false;
                }
                done += n;
            }
            return true;
        }
        // A direct buffer is filled through this thread's staging array: the socket's stream reads into arrays.
        ByteBuffer target = dst.duplicate();
        byte[] chunk = STAGING.get();
        int done = 0;
        while (done < bytes) {
            int n = in.read(chunk, 0, Math.min(chunk.length, bytes - done));
            if (n < 0) {
                return false;
            }
            target.put(chunk, 0, n);
            done += n;
        }
        return true;
    }

    /**
     * {@code bytes first-last/total} as {first, last, total}, total -1 for {@code *}; {@code null} if it is not
     * that shape.
     */
    static long[] contentRange(String header) {
        if (header == null) {
            return null;
        }
        String value = header.trim().toLowerCase(Locale.ROOT);
        if (!value.startsWith("bytes ")) {
            return null;
        }
        int dash = value.indexOf('-', 6);
        int slash = value.indexOf('/', dash + 1);
        if (dash < 0 || slash < 0) {
            return null;
        }
        try {
            long first = Long.parseLong(value.substring(6, dash).trim());
            long last = Long.parseLong(value.substring(dash + 1, slash).trim());
            String total = value.substring(slash + 1).trim();
            long length = "*".equals(total) ? -1 : Long.parseLong(total);
            return last < first ? null : new long[] {first, last, length};
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
