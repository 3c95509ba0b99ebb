package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.aws.S3Errors;
import dev.flinks3.transfer.options.S3Options;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

/**
 * The one place where uploads get their integrity checksum and GETs ask for one (S3 user guide,
 * "Checking object integrity"). The body of every PutObject and UploadPart is in memory, so its
 * checksum is computed here, once, and sent as a header: {@code x-amz-checksum-crc32c}, which S3
 * verifies before it stores anything and echoes in its answer. Given the value, the SDK computes no
 * checksum of its own and sends no trailer (the client is built with checksum calculation {@code
 * WHEN_REQUIRED}), so bodies go out as plain or signed-chunked payloads without {@code
 * STREAMING-*-TRAILER} encoding, which some S3-compatible servers (Ceph RGW 16.2) reject.
 *
 * <p>Which checksum a server checks is found out once per client, from the first upload answers:
 *
 * <ul>
 *   <li>At first each upload carries both the CRC32C header and {@code Content-MD5} (RFC 1864, checked by
 *       S3 and by every S3-compatible server we know), so these first bodies are verified whatever the
 *       server is.
 *   <li>An answer that echoes {@code x-amz-checksum-crc32c} shows that the server checks it: from then on
 *       only the CRC32C is sent (no MD5 is computed).
 *   <li>An answer without it shows that the server ignored the header (Ceph RGW 16.2 accepts and
 *       drops it); an error answer that names the checksum shows that it rejects it (that upload is
 *       sent again at once, with {@code Content-MD5} only). Either way, from then on uploads carry only
 *       {@code Content-MD5}, and one warning names {@code s3.checksum-validation.enabled}.
 * </ul>
 *
 * <p>A multipart upload declares CRC32C at CreateMultipartUpload (unless the server was found not to
 * check it), and CompleteMultipartUpload lists every part's CRC32C as the server echoed it (kept in
 * {@link CompletedPart#checksumCrc32c()}). GETs ask for the object's checksum ({@code
 * x-amz-checksum-mode: ENABLED}); where the server returns one for the bytes it sends, the SDK checks the
 * body against it.
 *
 * <p>A server may reject every {@code x-amz-checksum-*} header, not only the upload's (Backblaze B2
 * answers 400 to the algorithm of a CreateMultipartUpload and to a GET's checksum mode): such a
 * CreateMultipartUpload is sent again at once without the algorithm, and uploads carry Content-MD5 from
 * then on; such a GET is sent again at once without the checksum mode, and GETs ask for none from then
 * on. Each switch is made once per client, with one warning.
 *
 * <p>A server may demand {@code Content-MD5} on uploads whatever other checksum they carry (buckets with
 * Object Lock on IONOS and older appliances answer 400 naming {@code Content-MD5}, or {@code
 * MissingContentMD5}): such an upload is sent again at once with {@code Content-MD5} added, and from then
 * on every upload carries it beside the checksum of the mode (one warning); the CRC32C mode is kept.
 *
 * <p>With checksums off ({@code s3.checksum-validation.enabled: false}) no {@code x-amz-checksum-*}
 * header is sent and GETs ask for no checksum; uploads still carry {@code Content-MD5}, which every S3
 * server checks, so a body spoilt on the way is never stored.
 *
 * <p>Thread-safe: the mode moves once, from probing to CRC32C or to Content-MD5.
 */
final class FlexibleChecksums {

    private static final Logger LOG = LoggerFactory.getLogger(FlexibleChecksums.class);

    /** What uploads carry. */
    enum Mode {
        /** Flexible checksums switched off: Content-MD5 only, GETs ask for no checksum. */
        OFF,
        /** Not known yet which checksum the server checks: CRC32C and Content-MD5. */
        PROBING,
        /** The server checks and echoes x-amz-checksum-crc32c: CRC32C only. */
        CRC32C,
        /** The server ignores or rejects x-amz-checksum-*: Content-MD5 only. */
        CONTENT_MD5
    }

    /** A checksum header of a request without a body to check (what the server may reject). */
    enum Declared {
        /** CreateMultipartUpload's {@code x-amz-checksum-algorithm}. */
        ALGORITHM,
        /** A GET's {@code x-amz-checksum-mode}. */
        CHECKSUM_MODE
    }

    private final AtomicReference<Mode> mode;
    private final AtomicBoolean askOnGets;
    private final AtomicBoolean md5Demanded = new AtomicBoolean();

    FlexibleChecksums(boolean enabled) {
        this.mode = new AtomicReference<>(enabled ? Mode.PROBING : Mode.OFF);
        this.askOnGets = new AtomicBoolean(enabled);
    }

    /** True if flexible checksums are switched on. */
    boolean enabled() {
        return mode.get() != Mode.OFF;
    }

    /** True once the server demanded Content-MD5 on uploads: every upload carries it from then on. */
    boolean md5Demanded() {
        return md5Demanded.get();
    }

    /** True while GETs ask for the object's checksum. */
    boolean asksOnGets() {
        return askOnGets.get();
    }

    /** What uploads carry now. */
    Mode mode() {
        return mode.get();
    }

    /**
     * Sends one upload with the checksums of {@code body} for the current mode and learns the mode from
     * its answer. When the server rejects the CRC32C header of this very request, the upload is sent
     * once more with {@code Content-MD5} only.
     *
     * @param body the bytes to upload, position to limit; not modified
     * @param send sends the request with the given checksums as headers
     * @param echoedCrc32c the {@code x-amz-checksum-crc32c} of the answer, or {@code null} if it has none
     * @param operation the S3 operation, for the warning
     * @param location the upload's location, for the warning
     * @return the answer; fails as {@code send}'s future does
     */
    <R> CompletableFuture<R> upload(
            ByteBuffer body,
            Function<BodyChecksums, CompletableFuture<R>> send,
            Function<R, String> echoedCrc32c,
            String operation,
            Object location) {
        BodyChecksums sent = checksumsOf(body, mode.get());
        return send.apply(sent)
                .handle((response, failure) -> {
                    if (failure == null) {
                        learnFromAnswer(sent, echoedCrc32c.apply(response), operation, location);
                        return CompletableFuture.completedFuture(response);
                    }
                    if (sent.contentMd5() == null && demandsContentMd5(failure)) {
                        if (md5Demanded.compareAndSet(false, true)) {
                            LOG.warn(
                                    "This S3 server demands Content-MD5 on uploads (an Object Lock bucket, or a server"
                                            + " that checks nothing else): {} for {} was refused without it ({})."
                                            + " Every upload carries Content-MD5 from now on.",
                                    operation,
                                    location,
                                    Futures.unwrap(failure).getMessage());
                        }
                        return send.apply(checksumsOf(body, mode.get()));
                    }
                    if (sent.crc32c() != null
                            && rejectsChecksumHeader(failure)
                            && switchToContentMd5(operation + " for " + location
                                    + " was rejected with the x-amz-checksum-crc32c header ("
                                    + Futures.unwrap(failure).getMessage() + "); it is sent again with Content-MD5")) {
                        return send.apply(checksumsOf(body, Mode.CONTENT_MD5));
                    }
                    return CompletableFuture.<R>failedFuture(unwrapCompletion(failure));
                })
                .thenCompose(Function.identity());
    }

    /**
     * Sends a request that would carry the checksum header {@code declared} (if {@code send} is given
     * true) while the server is not known to reject it. When the server rejects that header in this very
     * request, the request is sent once more without it ({@code send} given false), and from then on no
     * such request carries it.
     *
     * @param send sends the request, with the header if given true; its future fails with an already
     *     translated exception
     * @return the answer; fails as {@code send}'s future does; cancelling it cancels the request in flight
     */
    <R> CompletableFuture<R> declaring(
            Declared declared, Function<Boolean, CompletableFuture<R>> send, String operation, Object location) {
        boolean withHeader = declares(declared);
        if (!withHeader) {
            return send.apply(false);
        }
        CompletableFuture<R> result = new CompletableFuture<>();
        AtomicReference<CompletableFuture<R>> inFlight = new AtomicReference<>(send.apply(true));
        inFlight.get().whenComplete((response, failure) -> {
            if (failure == null) {
                result.complete(response);
            } else if (rejectsChecksumHeader(failure) && stopDeclaring(declared, failure, operation, location)) {
                CompletableFuture<R> again = send.apply(false);
                inFlight.set(again);
                if (result.isCancelled()) {
                    again.cancel(true);
                }
                again.whenComplete((answer, failed) -> {
                    if (failed == null) {
                        result.complete(answer);
                    } else {
                        result.completeExceptionally(unwrapCompletion(failed));
                    }
                });
            } else {
                result.completeExceptionally(unwrapCompletion(failure));
            }
        });
        result.whenComplete((ignored, failure) -> {
            if (result.isCancelled()) {
                inFlight.get().cancel(true);
            }
        });
        return result;
    }

    private static Throwable unwrapCompletion(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /**
     * The blocking form of {@link #declaring}: {@code send}'s exception, unless it is the server's
     * rejection of the header, which sends the request once more without it.
     */
    <R> R declaringBlocking(Declared declared, BlockingSend<R> send, String operation, Object location)
            throws IOException {
        boolean withHeader = declares(declared);
        try {
            return send.send(withHeader);
        } catch (IOException failure) {
            if (withHeader && rejectsChecksumHeader(failure) && stopDeclaring(declared, failure, operation, location)) {
                return send.send(false);
            }
            throw failure;
        }
    }

    /** Sends a request, with the checksum header if given true. */
    @FunctionalInterface
    interface BlockingSend<R> {
        R send(boolean withHeader) throws IOException;
    }

    private boolean declares(Declared declared) {
        switch (declared) {
            case ALGORITHM:
                Mode now = mode.get();
                return now == Mode.PROBING || now == Mode.CRC32C;
            case CHECKSUM_MODE:
                return askOnGets.get();
            default:
                throw new IllegalArgumentException("unknown checksum header " + declared);
        }
    }

    /** Stops sending {@code declared}; true if it is not sent from now on. */
    private boolean stopDeclaring(Declared declared, Throwable failure, String operation, Object location) {
        String why = operation + " for " + location + " was rejected with its " + headerName(declared) + " header ("
                + Futures.unwrap(failure).getMessage() + "); it is sent again without it";
        if (declared == Declared.ALGORITHM) {
            return switchToContentMd5(why);
        }
        if (askOnGets.compareAndSet(true, false)) {
            LOG.warn(
                    "This S3 server rejects the checksum mode of GETs: {}. GETs ask for no checksum from now on;" + " "
                            + S3Options.CHECKSUM_VALIDATION_ENABLED.key() + ": false sends none from the start.",
                    why);
        }
        return true;
    }

    private static String headerName(Declared declared) {
        return declared == Declared.ALGORITHM ? "x-amz-checksum-algorithm" : "x-amz-checksum-mode";
    }

    private void learnFromAnswer(BodyChecksums sent, String echoed, String operation, Object location) {
        if (sent.crc32c() == null || mode.get() != Mode.PROBING) {
            return;
        }
        if (echoed != null) {
            mode.compareAndSet(Mode.PROBING, Mode.CRC32C);
        } else {
            switchToContentMd5("the answer to " + operation + " for " + location
                    + " has no x-amz-checksum-crc32c, so the server ignored the checksum sent");
        }
    }

    /**
     * Moves from probing to Content-MD5 once; true if the mode is Content-MD5 now. A server whose answers
     * already showed that it checks CRC32C stays at CRC32C.
     */
    private boolean switchToContentMd5(String why) {
        if (mode.compareAndSet(Mode.PROBING, Mode.CONTENT_MD5)) {
            LOG.warn(
                    "This S3 server does not check flexible checksums: {}. Uploads carry Content-MD5 from now on,"
                            + " which the server checks instead. " + S3Options.CHECKSUM_VALIDATION_ENABLED.key()
                            + ": false sends"
                            + " Content-MD5 only from the start.",
                    why);
        }
        return mode.get() == Mode.CONTENT_MD5;
    }

    /** The checksums of {@code body} in {@code mode}, with Content-MD5 added once the server demanded it. */
    private BodyChecksums checksumsOf(ByteBuffer body, Mode mode) {
        BodyChecksums checksums = BodyChecksums.of(body, mode);
        return md5Demanded.get() ? checksums.withContentMd5(body) : checksums;
    }

    /**
     * A 400 answer that asks for Content-MD5: the code {@code MissingContentMD5}, or a message naming
     * {@code Content-MD5} (AWS words it "Content-MD5 OR x-amz-checksum- HTTP header is required for Put
     * Object requests with Object Lock parameters").
     */
    static boolean demandsContentMd5(Throwable failure) {
        Throwable cause = Futures.unwrap(failure);
        if (!(cause instanceof S3RequestException) || ((S3RequestException) cause).statusCode() != 400) {
            return false;
        }
        S3RequestException answer = (S3RequestException) cause;
        return "MissingContentMD5".equals(answer.errorCode())
                || (answer.getMessage() != null
                        && answer.getMessage().toLowerCase(Locale.ROOT).contains("content-md5"));
    }

    /** An error answer that names the checksum, as {@link S3Errors} classifies it (not BadDigest). */
    private static boolean rejectsChecksumHeader(Throwable failure) {
        Throwable cause = Futures.unwrap(failure);
        return cause instanceof S3RequestException
                && cause.getMessage() != null
                && cause.getMessage().contains(S3Errors.CHECKSUM_HINT);
    }

    PutObjectRequest.Builder decorate(PutObjectRequest.Builder request, BodyChecksums checksums) {
        return request.checksumCRC32C(checksums.crc32c()).contentMD5(checksums.contentMd5());
    }

    UploadPartRequest.Builder decorate(UploadPartRequest.Builder request, BodyChecksums checksums) {
        return request.checksumCRC32C(checksums.crc32c()).contentMD5(checksums.contentMd5());
    }

    /** {@code request} with the CRC32C algorithm declared if {@code withHeader} (see {@link #declaring}). */
    CreateMultipartUploadRequest.Builder decorate(CreateMultipartUploadRequest.Builder request, boolean withHeader) {
        return withHeader ? request.checksumAlgorithm(ChecksumAlgorithm.CRC32_C) : request;
    }

    /**
     * {@code request} for bytes from {@code rangeStart} on, asking for the object's checksum if {@code withHeader}
     * (see {@link #declaring}) and {@link #checksumCanCover} that range.
     */
    GetObjectRequest.Builder decorate(GetObjectRequest.Builder request, boolean withHeader, long rangeStart) {
        return withHeader && checksumCanCover(rangeStart) ? request.checksumMode(ChecksumMode.ENABLED) : request;
    }

    /**
     * Whether a ranged GET from byte {@code rangeStart} on is worth asking the object's checksum for
     * ({@code x-amz-checksum-mode: ENABLED}): only a range from byte 0 can hold the whole object, and a checksum of a
     * whole object can check nothing less. S3 returns none for a range (S3 user guide, "Checking object integrity":
     * a checksum is returned for a whole object or a part); a server that does (S3Proxy) computes it over the
     * object on every GET, which doubled the embedded server's CPU per positional read of 16 KiB.
     */
    static boolean checksumCanCover(long rangeStart) {
        return rangeStart == 0;
    }

    /**
     * The checksums one upload body carries, base64 as the headers take them; either may be {@code null}.
     */
    static final class BodyChecksums {

        private final String crc32c;
        private final String contentMd5;

        private BodyChecksums(String crc32c, String contentMd5) {
            this.crc32c = crc32c;
            this.contentMd5 = contentMd5;
        }

        static BodyChecksums of(ByteBuffer body, Mode mode) {
            switch (mode) {
                case PROBING:
                    return new BodyChecksums(crc32c(body), contentMd5(body));
                case CRC32C:
                    return new BodyChecksums(crc32c(body), null);
                case CONTENT_MD5:
                case OFF:
                    return new BodyChecksums(null, contentMd5(body));
                default:
                    throw new IllegalArgumentException("unknown mode " + mode);
            }
        }

        /** These checksums with Content-MD5 of {@code body} added (kept if there already). */
        BodyChecksums withContentMd5(ByteBuffer body) {
            return contentMd5 != null ? this : new BodyChecksums(crc32c, contentMd5(body));
        }

        /** Base64 of the body's CRC32C, big-endian, as {@code x-amz-checksum-crc32c} takes it; or null. */
        String crc32c() {
            return crc32c;
        }

        /** Base64 of the body's MD5, as {@code Content-MD5} takes it; or null. */
        String contentMd5() {
            return contentMd5;
        }

        static String crc32c(ByteBuffer body) {
            CRC32C crc = new CRC32C();
            crc.update(body.duplicate());
            int value = (int) crc.getValue();
            return Base64.getEncoder()
                    .encodeToString(ByteBuffer.allocate(4).putInt(value).array());
        }

        static String contentMd5(ByteBuffer body) {
            try {
                MessageDigest md5 = MessageDigest.getInstance("MD5");
                md5.update(body.duplicate());
                return Base64.getEncoder().encodeToString(md5.digest());
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java platform has MD5", e);
            }
        }
    }
}
