package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.DefaultMemoryLimit;
import dev.flinks3.transfer.EncryptionSettings;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.aws.ClientRules;
import dev.flinks3.transfer.aws.ClosedGuard;
import dev.flinks3.transfer.aws.Closer;
import dev.flinks3.transfer.aws.HttpProxies;
import dev.flinks3.transfer.aws.S3Credentials;
import dev.flinks3.transfer.aws.SseDecorator;
import dev.flinks3.transfer.bulk.BulkDownloader;
import dev.flinks3.transfer.crt.CrtClients;
import dev.flinks3.transfer.crt.CrtS3Client;
import dev.flinks3.transfer.crt.TransferManagerDownload;
import dev.flinks3.transfer.read.ReadAheadBudget;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.client.config.SdkAdvancedAsyncClientOption;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3BaseClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.transfer.s3.S3TransferManager;

/**
 * One S3 client configuration (credentials, region, endpoint, SSE, bucket options, retry policy) as a
 * light client on the process's shared {@link S3Transport}: the asynchronous S3 client on the
 * transport's HTTP client and executors with a blocking S3 client of the same configuration beside it
 * on the transport's blocking HTTP client (for the bodies a reader streams), or a view on the process's one
 * CRT-based S3 client ({@link ClientSettings.ClientType#CRT}, see {@link CrtS3Client} and {@link CrtClients}:
 * one native connection pool and memory limit on the transport, requests signed with this configuration's
 * credentials),
 * the credentials provider (and STS client) and the request metrics of this configuration. {@link
 * #close()} releases what it built, in the reverse order of creation, and its share of the transport's
 * HTTP client; the transport itself stays open for the other owners on it. The {@link #objectClient()
 * object client} and the {@link #bulkDownloader() bulk downloader} are cheap views on that client.
 *
 * <p>On the SDK's client the Transfer Manager is not used: with the Java-based client its
 * multipart download reads parts by part number, which S3-compatible servers such as S3Proxy do not
 * implement, while the {@link BulkDownloader}'s ranged GETs through the object client work
 * everywhere. On the CRT-based S3 client it is: that client downloads with ranged GETs natively.
 *
 * <p>Thread-safe. Futures of the object client complete on the transport's completion executor, so
 * callers' callbacks never run on (and never block) an event-loop thread.
 */
public final class S3ClientOwner implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(S3ClientOwner.class);

    /** Largest part a multipart copy (above 5 GiB) copies per UploadPartCopy request. */
    static final long COPY_PART_BYTES = 512L * 1024 * 1024;
    /** UploadPartCopy requests of one multipart copy in flight at once. */
    static final int COPY_PARTS_IN_FLIGHT = 8;
    /** Most ranged GETs of one file a bulk download has in flight. */
    static final int RANGES_IN_FLIGHT_PER_FILE = 4;

    private final Closer closer = new Closer();
    private final ClosedGuard closedGuard = new ClosedGuard();
    private final S3Settings settings;
    private final Region region;
    private final S3Credentials credentials;
    private final S3RequestMetrics requestMetrics = new S3RequestMetrics();
    private final S3Transport transport;
    private final SdkObjectClient objectClient;
    private final BulkDownloader bulkDownloader;
    private final ClientSettings.HttpClientType httpClientInUse;
    private final HttpProxies proxies;
    private final Engine engine;
    private final SseDecorator sse;

    /**
     * Builds the clients on a transport of their own, which {@link #close()} closes too (a process
     * with one configuration, tests). The new owner owns every resource it creates and nothing passed
     * in; {@code settings} is immutable.
     *
     * @throws IllegalArgumentException if a setting cannot be applied (an unknown credentials
     *     provider class, an SSE-C key that is not a 256-bit key)
     * @throws software.amazon.awssdk.core.exception.SdkException if the SDK refuses the
     *     configuration; everything created so far is closed first
     */
    public S3ClientOwner(S3Settings settings) {
        this(settings, null, SdkObjectClient.MAX_SINGLE_COPY_BYTES, COPY_PART_BYTES);
    }

    /**
     * Builds a light client on {@code transport}, which stays owned by the caller and must outlive
     * this owner.
     *
     * @throws IllegalArgumentException if a setting cannot be applied (see {@link
     *     #S3ClientOwner(S3Settings)}), {@link IllegalStateException} if {@code transport} is closed
     */
    public S3ClientOwner(S3Settings settings, S3Transport transport) {
        this(
                settings,
                Objects.requireNonNull(transport, "transport"),
                SdkObjectClient.MAX_SINGLE_COPY_BYTES,
                COPY_PART_BYTES);
    }

    /**
     * As {@link #S3ClientOwner(S3Settings)}, with the multipart copy's threshold and part size
     * chosen (tests copy a few MiB in parts instead of 5 GiB).
     */
    S3ClientOwner(S3Settings settings, long maxSingleCopyBytes, long copyPartBytes) {
        this(settings, null, maxSingleCopyBytes, copyPartBytes);
    }

    private S3ClientOwner(S3Settings settings, S3Transport shared, long maxSingleCopyBytes, long copyPartBytes) {
        this.settings = settings;
        try {
            this.transport = shared != null ? shared : closer.register(new S3Transport());
            this.region = resolveRegion(settings);
            ThreadPoolExecutor completion = transport.completion();
            ScheduledThreadPoolExecutor scheduler = transport.scheduler();
            this.credentials =
                    closer.register(S3Credentials.create(settings.client().credentials(), region));
            this.proxies = HttpProxies.of(settings.client());
            S3AsyncClient s3;
            S3Client blocking = null;
            DirectRangedGet direct = null;
            ExecutorService blockingReads = null;
            FlexibleChecksums checksums =
                    new FlexibleChecksums(settings.client().checksumsEnabled());
            this.sse = new SseDecorator(settings.encryption());
            // The one choice of the engine, for every request of this configuration.
            if (settings.client().client() == ClientSettings.ClientType.CRT) {
                this.httpClientInUse = ClientSettings.HttpClientType.CRT;
                // The process's one CRT-based client, signing this configuration's requests with its credentials.
                CrtClients.Lease crt = closer.register(
                        transport.crtClients().lease(settings, region, proxies, credentials.provider()));
                s3 = crt.client();
                this.engine = Engine.crt(crt.transferManager(), sse);
            } else {
                this.engine = Engine.sdk();
                S3Transport.HttpClients http = transport.httpClients(settings.client(), proxies, closer);
                this.httpClientInUse = AsyncHttpClientFactory.typeOf(http.async());
                // One strategy for both clients: one retry budget (token bucket) per configuration.
                RetryStrategy retryStrategy = S3RetryStrategy.create(settings.client(), requestMetrics);
                s3 = closer.register(configured(S3AsyncClient.builder(), scheduler, retryStrategy)
                        .httpClient(http.async())
                        .asyncConfiguration(async -> async.advancedOption(
                                SdkAdvancedAsyncClientOption.FUTURE_COMPLETION_EXECUTOR, completion))
                        .build());
                blocking = closer.register(configured(S3Client.builder(), scheduler, retryStrategy)
                        .httpClient(http.blocking())
                        .build());
                if (directGetsApply(settings)) {
                    direct = new DirectRangedGet(
                            http.blocking(),
                            credentials.provider(),
                            region.id(),
                            s3.utilities(),
                            scheduler,
                            settings.client().apiCallAttemptTimeout(),
                            requestMetrics,
                            checksums::asksOnGets,
                            S3RetryStrategy.throttlingBackoff(settings.client()));
                    blockingReads = http.blockingReads();
                }
            }
            this.objectClient = new SdkObjectClient(
                    s3,
                    blocking,
                    direct,
                    blockingReads,
                    sse,
                    checksums,
                    new MultipartCopy(s3, sse, copyPartBytes, COPY_PARTS_IN_FLIGHT),
                    maxSingleCopyBytes,
                    closedGuard,
                    scheduler);
            this.bulkDownloader = engine.choose(new Engine.Choice<BulkDownloader>() {
                @Override
                public BulkDownloader sdk() {
                    return BulkDownloader.ranged(
                            objectClient,
                            settings.read().bulkCopyConcurrency(),
                            settings.read().bulkCopyRangeBytes(),
                            rangesPerFile(settings));
                }

                @Override
                public BulkDownloader crt(S3TransferManager transferManager, SseDecorator sse) {
                    return new BulkDownloader(
                            new TransferManagerDownload(transferManager, sse, closedGuard),
                            settings.read().bulkCopyConcurrency());
                }
            });
        } catch (RuntimeException e) {
            throw closer.closeAfterFailure(e);
        } catch (Error e) {
            throw closer.closeAfterFailure(e);
        }
        SdkSigningLog.warnIfSecretsWouldBeLogged();
        LOG.debug("Created S3 clients: {}", this);
    }

    /** The object client on this owner's plain S3 client; valid until {@link #close()}. */
    public ObjectClient objectClient() {
        return objectClient;
    }

    /** The bulk downloader on this owner's S3 client; valid until {@link #close()}. */
    public BulkDownloader bulkDownloader() {
        return bulkDownloader;
    }

    /**
     * The budget of read-ahead windows that the input streams on this owner's clients share ({@link
     * DefaultMemoryLimit}): the transport's, shared by every owner on it.
     */
    public ReadAheadBudget readAheadBudget() {
        return transport.readAheadBudget();
    }

    /**
     * The engine chosen for this configuration, once ({@code s3.client}): what is built on this owner's clients
     * asks it which one. Its Transfer Manager is valid until {@link #close()}.
     */
    public Engine engine() {
        return engine;
    }

    /**
     * The server-side encryption headers of this configuration ({@code s3.sse.*}), built once: every
     * request this owner's clients send, and the Transfer Manager's uploads, carry the same ones.
     */
    public SseDecorator sse() {
        return sse;
    }

    /**
     * Counts of this owner's S3 requests, attempts, retries and throttled attempts, per S3 operation
     * with their latency, and the object bytes downloaded; valid also after {@link #close()}.
     */
    public S3RequestMetrics requestMetrics() {
        return requestMetrics;
    }

    /**
     * The HTTP client that carries the requests: the configured one, or Netty when the CRT's native
     * library does not load; {@code CRT} for the CRT-based S3 client.
     */
    public ClientSettings.HttpClientType httpClientInUse() {
        return httpClientInUse;
    }

    /** The region requests are signed for. */
    public Region region() {
        return region;
    }

    /**
     * Where this owner's credentials come from, resolving them once ({@link S3Credentials#resolvedSource()}):
     * may send a request (instance metadata, STS); never fails, never shows a key.
     */
    public String credentialsSource() {
        return credentials.resolvedSource();
    }

    /**
     * Closes the S3 client, the credentials and this owner's share of the HTTP client (and, with a
     * transport of its own, the HTTP client and the executors), in that order.
     * Requests still in flight fail, and later requests are not sent: both fail with an {@link
     * IOException} saying that the S3 filesystem is closed ({@link ClosedGuard}).
     *
     * @throws IOException the first failure to close, later ones suppressed
     */
    @Override
    public void close() throws IOException {
        closedGuard.close();
        closer.close();
    }

    /**
     * The settings' region; without one (and without a custom endpoint) the SDK's region chain;
     * if that finds none, {@code us-east-1} with cross-region access, so buckets of any region
     * still work (the SDK follows S3's region redirects).
     */
    static Region resolveRegion(S3Settings settings) {
        if (settings.client().region() != null) {
            return Region.of(settings.client().region());
        }
        try {
            return new DefaultAwsRegionProviderChain().getRegion();
        } catch (SdkClientException noRegionConfigured) {
            return Region.of(ClientSettings.DEFAULT_SIGNING_REGION);
        }
    }

    /**
     * Ranged GETs per file of a bulk download: up to {@value #RANGES_IN_FLIGHT_PER_FILE}, fewer when
     * the files in flight would otherwise ask for more connections than the pool has, since waiting
     * GETs count against the per-attempt timeout.
     */
    /**
     * Whether positional reads may skip the SDK's pipeline ({@link DirectRangedGet}): when the settings allow it,
     * and not where a GET needs more
     * than a signature and a range (SSE-C's customer key, requester pays, access point routing) or where the
     * region to sign with is not known before the first answer (no endpoint and no region: cross-region access).
     */
    static boolean directGetsApply(S3Settings settings) {
        ClientSettings client = settings.client();
        return settings.read().directGetsEnabled()
                && settings.encryption().sseType() != EncryptionSettings.SseType.SSE_C
                && !client.requesterPays()
                && client.accessPoints().isEmpty()
                && (client.endpoint() != null || client.region() != null);
    }

    static int rangesPerFile(S3Settings settings) {
        return Math.max(
                1,
                Math.min(
                        RANGES_IN_FLIGHT_PER_FILE,
                        settings.client().maxConnections() / settings.read().bulkCopyConcurrency()));
    }

    /**
     * {@code builder} with this configuration, the same for the asynchronous and the blocking client
     * (everything but the HTTP client and the asynchronous client's completion executor).
     */
    private <B extends S3BaseClientBuilder<B, ?>> B configured(
            B builder, ScheduledThreadPoolExecutor scheduler, RetryStrategy retryStrategy) {
        builder.credentialsProvider(credentials.provider())
                .region(region)
                .forcePathStyle(settings.client().pathStyleAccess())
                // Upload checksums are computed by FlexibleChecksums and sent as headers.
                .requestChecksumCalculation(ClientRules.requestChecksums())
                .responseChecksumValidation(ClientRules.responseChecksums(settings.client()))
                .serviceConfiguration(S3Configuration.builder()
                        .chunkedEncodingEnabled(settings.client().chunkedEncodingEnabled())
                        .expectContinueEnabled(settings.client().expectContinueEnabled())
                        .build())
                .overrideConfiguration(override -> override.retryStrategy(retryStrategy)
                        .addMetricPublisher(requestMetrics)
                        // One list: executionInterceptors(...) replaces whatever was added before it.
                        .executionInterceptors(interceptors(settings))
                        .scheduledExecutorService(scheduler)
                        .apiCallTimeout(settings.client().apiCallTimeout())
                        .apiCallAttemptTimeout(settings.client().apiCallAttemptTimeout()));
        if (settings.client().endpoint() != null) {
            builder.endpointOverride(settings.client().endpoint());
        }
        return builder.crossRegionAccessEnabled(ClientRules.crossRegionAccess(settings.client()));
    }

    /** The body-bytes counter, the create-attempt counter, then the bucket interceptors. */
    private List<ExecutionInterceptor> interceptors(S3Settings settings) {
        List<ExecutionInterceptor> interceptors = new ArrayList<>();
        interceptors.add(new ObjectBodyBytes(requestMetrics));
        interceptors.add(new CreateAttempts());
        interceptors.addAll(bucketInterceptors(settings));
        return interceptors;
    }

    /** Storage class, requester pays and access points, where the settings ask for them. */
    static List<ExecutionInterceptor> bucketInterceptors(S3Settings settings) {
        List<ExecutionInterceptor> interceptors = new ArrayList<>();
        if (BucketRequestOptions.neededFor(settings)) {
            interceptors.add(new BucketRequestOptions(settings));
        }
        if (!settings.client().accessPoints().isEmpty()) {
            interceptors.add(new AccessPointRouting(settings.client().accessPoints()));
        }
        return interceptors;
    }

    @Override
    public String toString() {
        return "S3ClientOwner{engine=" + engine
                + ", httpClient=" + httpClientInUse
                + ", endpoint=" + settings.client().endpoint()
                + ", proxy=" + proxies
                + ", region=" + region
                + ", pathStyleAccess=" + settings.client().pathStyleAccess()
                + ", credentials=" + credentials
                + ", checksums=" + settings.client().checksumsEnabled()
                + "}";
    }
}
