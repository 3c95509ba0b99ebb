package dev.flinks3.fs;

import dev.flinks3.fs.metrics.MetricsBeans;
import dev.flinks3.fs.metrics.MetricsSummaryLog;
import dev.flinks3.fs.metrics.S3FileSystemMetrics;
import dev.flinks3.multipart.UploadBuffers;
import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.multipart.crt.CreateStreams;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.UploadStreams;
import dev.flinks3.transfer.crt.CrtClients;
import dev.flinks3.transfer.options.S3Options;
import dev.flinks3.transfer.read.ReadAheadBudget;
import dev.flinks3.transfer.sdk.S3ClientOwner;
import dev.flinks3.transfer.sdk.S3Transport;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.flink.configuration.ConfigOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one runtime of the plugin in a process (per plugin classloader): the {@link S3Transport} (HTTP
 * client with its connection pool and event loops, completion executor, scheduler, read-ahead budget),
 * the {@link UploadBuffers} (the upload budget and its part-buffer pools) and the timer of the metrics
 * summary lines. The {@code s3://} and {@code s3a://} factories and every per-bucket configuration share
 * it: each distinct client configuration (credentials, endpoint, region, SSE, bucket options) gets a
 * light {@link Client} on it, with its own S3 client, upload engine and MBeans, and the budgets and pools
 * of the process. Every scheme ({@code s3://}, {@code s3a://} and any other factory on this runtime) of one
 * configuration shares that configuration's client: one set of S3 clients, one credentials provider (one
 * assume-role session), one upload engine, and one set of MBeans, named with the scheme that first used it.
 *
 * <p><b>What is shared, exactly.</b> Per process (per runtime): the executors, the read-ahead budget, the
 * upload budget and its part-buffer pools, the metrics timer, and one pair of HTTP clients per set of
 * connection settings (see {@link S3Transport}): the asynchronous client (uploads, listings, deletes, HEADs,
 * GETs a caller does not stream) and the blocking client (GETs a reader streams, positional reads), each
 * with its own pool capped at {@code s3.connection.max}, so a process holds at most twice that many
 * connections to one endpoint. Per configuration: the S3 clients on those HTTP clients, the credentials, the
 * upload engine, and the MBeans. With {@code s3.client: crt}, one CRT-based S3 client per process (one native
 * connection pool and memory limit, in the transport), of which each configuration holds a view signing with its
 * credentials; a bucket configuration whose client-level keys differ from the global ones is refused ({@link
 * CrtClients}).
 *
 * <p><b>Lifetime.</b> Clients are reference-counted ({@link #lease}); the last {@link Client#close()} of
 * a configuration closes its S3 client, and the last one of the runtime closes the runtime. A later
 * lease builds a new runtime.
 *
 * <p><b>Process-wide settings.</b> {@code s3.upload.max-buffered-size} and {@code
 * s3.metrics.log-interval} belong to the runtime. Flink gives both factories the same configuration, so
 * a process has one runtime; configurations with other values of these keys alive at the same time (tests,
 * embedders configuring factories themselves) get a runtime of their own, with a warning, since each such
 * runtime has its own caps. Per-bucket values of these keys are ignored (the global value is used).
 * Thread-safe.
 */
final class S3Runtime {

    private static final Logger LOG = LoggerFactory.getLogger(S3Runtime.class);

    /** How long closing waits for the aborts of uploads still running after {@code s3.close.timeout}, in ms. */
    static final long ABORT_WAIT_MS = 5_000;

    /** The runtimes alive, by their process-wide settings; guarded by {@code S3Runtime.class}. */
    private static final Map<List<Object>, S3Runtime> RUNTIMES = new HashMap<>();

    /** The keys whose values a runtime holds for the whole process: they cannot be set per bucket. */
    static final List<ConfigOption<?>> PROCESS_WIDE =
            List.of(S3ConfigOptions.MAX_BUFFERED_SIZE, S3ConfigOptions.METRICS_LOG_INTERVAL);

    private final List<Object> key;
    private final S3Transport transport;
    private final UploadBuffers buffers;
    private final Duration metricsInterval;
    private final ScheduledExecutorService metricsTimer;
    /** The clients of each distinct configuration; guarded by {@code S3Runtime.class}. */
    private final Map<List<Object>, Client> clients = new HashMap<>();

    private S3Runtime(List<Object> key, S3FileSystemSettings global) {
        this.key = key;
        this.transport = new S3Transport();
        this.buffers = new UploadBuffers(global.s3().upload().maxBufferedBytesPerProcess());
        this.metricsInterval = global.metricsLogInterval();
        this.metricsTimer = metricsInterval.isZero() ? null : MetricsSummaryLog.newTimer();
    }

    /**
     * A lease on the client of one configuration, built on the first lease of that configuration (and
     * the runtime on the first lease of all). Each lease is closed once.
     *
     * @param global the factory's configuration without per-bucket keys: the runtime's settings
     * @param effective the configuration of the filesystem's bucket (global and per-bucket keys)
     * @param configuration what tells configurations apart: equal for equal effective configurations
     * @param scheme {@code s3}, {@code s3a} or {@code s3p}: the factory's scheme, a key of the client's MBeans if this
     *     lease builds the client
     * @throws IllegalArgumentException or {@code SdkException} if the S3 client cannot be built
     */
    static Client lease(
            S3FileSystemSettings global, S3FileSystemSettings effective, Object configuration, String scheme) {
        refuseASecondCrtClient(global, effective);
        // The values of PROCESS_WIDE, in its order.
        List<Object> runtimeKey =
                List.of(global.s3().upload().maxBufferedBytesPerProcess(), global.metricsLogInterval());
        synchronized (S3Runtime.class) {
            S3Runtime runtime = RUNTIMES.get(runtimeKey);
            if (runtime == null) {
                if (!RUNTIMES.isEmpty()) {
                    LOG.warn(
                            "A second flinks3 runtime is built in this process for a configuration with other process-wide"
                                    + " values (" + S3ConfigOptions.MAX_BUFFERED_SIZE.key() + " {} bytes, "
                                    + S3ConfigOptions.METRICS_LOG_INTERVAL.key() + " {}) than"
                                    + " the one running ({}): each runtime has its own connection pool and caps",
                            runtimeKey.get(0),
                            runtimeKey.get(1),
                            RUNTIMES.keySet());
                }
                runtime = new S3Runtime(runtimeKey, global);
                RUNTIMES.put(runtimeKey, runtime);
            }
            try {
                // The JVM's trust store and proxy properties count too: an HTTP client may have read them. The
                // scheme does not: every scheme of one configuration shares its client.
                List<Object> clientKey = List.of(configuration, S3Transport.jvmConnectionProperties());
                return runtime.client(effective, clientKey, scheme);
            } catch (RuntimeException | Error e) {
                runtime.closeIfUnused();
                throw e;
            }
        }
    }

    /**
     * With {@code s3.client: crt}, a bucket's configuration that would need a CRT-based S3 client of its own (a
     * second native memory limit of at least 1 GiB and a second cap of connections) is refused, naming the keys.
     */
    private static void refuseASecondCrtClient(S3FileSystemSettings global, S3FileSystemSettings effective) {
        if (global.s3().client().client() != ClientSettings.ClientType.CRT
                || effective.s3().client().client() != ClientSettings.ClientType.CRT) {
            return;
        }
        List<String> differences = CrtClients.differences(global.s3(), effective.s3());
        if (!differences.isEmpty()) {
            String client = S3Options.CLIENT.key();
            throw new IllegalArgumentException(client + ": crt runs one CRT-based S3 client per process (one native"
                    + " memory limit, one cap of connections), and this bucket's configuration would need one of its"
                    + " own: its per-bucket values (s3.bucket.<bucket>.*) differ from the global ones in "
                    + String.join(", ", differences) + ". Remove these per-bucket keys, or use " + client + ": sdk");
        }
    }

    /** The runtimes alive now (a gauge for tests: one per process-wide configuration). */
    static int runtimes() {
        synchronized (S3Runtime.class) {
            return RUNTIMES.size();
        }
    }

    /** The transport of this runtime, shared by all its clients. */
    S3Transport transport() {
        return transport;
    }

    /** The part buffers and upload budget of this runtime, shared by all its clients. */
    UploadBuffers buffers() {
        return buffers;
    }

    private Client client(S3FileSystemSettings settings, List<Object> clientKey, String scheme) {
        Client client = clients.get(clientKey);
        if (client == null) {
            client = new Client(this, clientKey, settings, scheme);
            clients.put(clientKey, client);
        }
        client.references++;
        return client;
    }

    /** Called with {@code S3Runtime.class} held. */
    private void closeIfUnused() {
        if (!clients.isEmpty() || RUNTIMES.get(key) != this) {
            return;
        }
        RUNTIMES.remove(key);
        try {
            transport.close();
        } catch (IOException e) {
            LOG.warn("Could not close the S3 transport of the flinks3 runtime", e);
        } finally {
            if (metricsTimer != null) {
                metricsTimer.shutdownNow();
            }
        }
        LOG.debug("Closed the flinks3 runtime {}", key);
    }

    /**
     * The S3 client of one configuration on the runtime, with its upload engine (on the runtime's part
     * buffers), the Transfer Manager's uploads with {@code s3.client: crt}, and its MBeans and summary
     * line. One lease of it is closed by {@link #close()}; the last lease's close releases it.
     */
    static final class Client implements Closeable {

        private final S3Runtime runtime;
        private final List<Object> key;
        private final S3FileSystemSettings settings;
        private final S3ClientOwner owner;
        private final UploadEngine uploads;
        private final UploadStreams streams;
        private final MetricsBeans beans;
        private final MetricsSummaryLog summaryLog;
        /** Guarded by {@code S3Runtime.class}. */
        private int references;

        private Client(S3Runtime runtime, List<Object> key, S3FileSystemSettings settings, String scheme) {
            this.runtime = runtime;
            this.key = key;
            this.settings = settings;
            this.owner = new S3ClientOwner(settings.s3(), runtime.transport);
            this.uploads = new UploadEngine(owner.objectClient(), settings.s3().upload(), runtime.buffers);
            this.streams = CreateStreams.of(owner, uploads, settings.s3());
            S3FileSystemMetrics metrics =
                    new S3FileSystemMetrics(owner.requestMetrics(), uploads.metrics(), owner.readAheadBudget());
            String endpoint = MetricsBeans.endpointKey(
                    settings.s3().client().endpoint(), owner.region().id());
            this.beans = MetricsBeans.register(scheme, endpoint, metrics);
            this.summaryLog = MetricsSummaryLog.start(
                    scheme + ":// on " + endpoint, metrics, runtime.metricsInterval, runtime.metricsTimer);
        }

        ObjectClient objectClient() {
            return owner.objectClient();
        }

        UploadEngine uploads() {
            return uploads;
        }

        /**
         * The streams of {@code create()}: with {@code s3.client: crt} the Transfer Manager's uploads, else
         * the upload engine; the one choice of the engine.
         */
        UploadStreams streams() {
            return streams;
        }

        BulkCopy bulkCopy() {
            return owner.bulkDownloader()::download;
        }

        /** The budget of read-ahead windows of the whole runtime. */
        ReadAheadBudget readAhead() {
            return owner.readAheadBudget();
        }

        /** The runtime this client is on. */
        S3Runtime runtime() {
            return runtime;
        }

        /** The HTTP client that carries the requests (Netty where the CRT's native library did not load). */
        ClientSettings.HttpClientType httpClientInUse() {
            return owner.httpClientInUse();
        }

        /** The region requests are signed for. */
        String region() {
            return owner.region().id();
        }

        /** Where the credentials come from, resolving them once: may send a request; never fails. */
        String credentialsSource() {
            return owner.credentialsSource();
        }

        /**
         * Gives this lease back. The last lease of the configuration waits up to {@code s3.close.timeout}
         * for parts still uploading (the process's, as the budget is shared); if some still are, cancels
         * this client's uploads and aborts them (waiting up to {@value #ABORT_WAIT_MS} ms), so the failed
         * streams leave nothing at the server. Then closes the S3 client (requests still in flight fail),
         * logs the last summary line and unregisters the MBeans; the last client of the runtime closes
         * the runtime.
         */
        @Override
        public void close() throws IOException {
            synchronized (S3Runtime.class) {
                if (--references > 0) {
                    return;
                }
                runtime.clients.remove(key);
            }
            try {
                drainUploads();
            } finally {
                try {
                    owner.close();
                } finally {
                    summaryLog.close();
                    beans.close();
                    synchronized (S3Runtime.class) {
                        runtime.closeIfUnused();
                    }
                }
            }
        }

        private void drainUploads() {
            try {
                long waitMs = settings.closeTimeout().toMillis();
                if (!uploads.budget().awaitNothingInFlight(waitMs)) {
                    LOG.warn(
                            "Closing the S3 filesystem ({}) after waiting {} ms (" + S3ConfigOptions.CLOSE_TIMEOUT.key()
                                    + ") with {} bytes of"
                                    + " parts still uploading in the process; its uploads fail and are aborted",
                            owner,
                            waitMs,
                            uploads.budget().inFlightBytes());
                    int notAborted = uploads.abortOpenUploads(ABORT_WAIT_MS);
                    if (notAborted > 0) {
                        LOG.warn(
                                "{} multipart uploads of the S3 filesystem ({}) could not be aborted while it closed;"
                                        + " a bucket lifecycle rule for incomplete multipart uploads removes them",
                                notAborted,
                                owner);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public String toString() {
            return owner + ", metrics MBean " + beans.fileSystemName();
        }
    }
}
