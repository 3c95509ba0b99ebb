package dev.flinks3.testserver;

import jakarta.servlet.DispatcherType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.shaded.org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.gaul.shaded.org.eclipse.jetty.server.Server;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * An S3-compatible server in this JVM: S3Proxy with its filesystem backend, SigV4 (and V2)
 * authentication with fixed keys (or none, see {@link Builder#authenticate}), listening on 127.0.0.1
 * only, path-style addressing. {@link ServerMode#BENCHMARK} keeps the objects in memory and accepts
 * signatures unverified instead, for benchmarks ({@link Builder#mode}).
 *
 * <p>Servlet filters sit in front of S3Proxy: one records every request in a {@link RequestLog}, one
 * applies a {@link NetworkProfile} (added latency, paced bodies), one answers requests chosen with
 * {@link #failNext} with an S3 error, one injects random faults of a {@link FaultProfile} if given, and, if asked to, one checks the trailing CRC32C of aws-chunked
 * uploads as S3 does (S3Proxy 4.1.0 skips it, see {@link TrailingChecksumFilter}). {@code GET /__flinks3/requests}
 * reports the {@link RequestSummary} (requests, serve time, bytes sent per operation) to other
 * processes. Create with {@link #builder()}; {@link #close()}
 * stops the server and deletes a base directory it created. Thread-safe once started.
 */
public final class EmbeddedS3Server implements AutoCloseable {

    /** The access key id every client must sign with. */
    public static final String ACCESS_KEY = "flinks3-test-access";

    /** The secret key every client must sign with (a test fixture, not a secret). */
    public static final String SECRET_KEY = "flinks3-test-secret";

    /**
     * The path on which the server answers {@code GET} with its {@link RequestSummary#render()} and
     * resets its {@link RequestLog} on {@code DELETE}, for processes outside this JVM.
     */
    public static final String REQUEST_SUMMARY_PATH = "/__flinks3/requests";

    /**
     * The path under which {@code DELETE <path><bucket>/<prefix>} calls {@link #dropObjects} for
     * processes outside this JVM.
     */
    public static final String DROP_OBJECTS_PATH = "/__flinks3/objects/";

    /** The signing region; S3Proxy accepts any, clients need one. */
    public static final String REGION = "us-east-1";

    private static final String FILESYSTEM_BASEDIR = "jclouds.filesystem.basedir";
    private static final long STOP_TIMEOUT_MS = 1_000;

    private final Path baseDir;
    private final boolean ownsBaseDir;
    private final NetworkProfile profile;
    private final BlobStore blobStore;
    private final S3Proxy proxy;
    private final RequestLog requestLog;
    private final FaultInjectionFilter faults = new FaultInjectionFilter();
    private final AnswerRewriteFilter answers = new AnswerRewriteFilter();
    private final RandomFaults randomFaults;
    private final List<String> initialBuckets;
    private final boolean tls;
    private final ServerMode mode;
    private volatile URI endpoint;

    private EmbeddedS3Server(Builder builder) throws IOException {
        this.ownsBaseDir = builder.baseDir == null;
        this.baseDir =
                ownsBaseDir ? Files.createTempDirectory("s3-test-server") : Files.createDirectories(builder.baseDir);
        this.profile = builder.profile;
        this.initialBuckets = List.copyOf(builder.buckets);
        this.requestLog = new RequestLog(builder.keepRequestEntries);
        this.mode = builder.mode;
        if (mode == ServerMode.BENCHMARK) {
            this.blobStore = new InMemoryBlobStore(BlobStores.create("transient", new Properties()));
        } else {
            Properties properties = new Properties();
            properties.setProperty(FILESYSTEM_BASEDIR, baseDir.toAbsolutePath().toString());
            this.blobStore = BlobStores.create("filesystem", properties);
        }
        this.tls = builder.tlsKeyStore != null;
        boolean authenticate = builder.authenticate && mode == ServerMode.FULL;
        S3Proxy.Builder s3Proxy = S3Proxy.builder()
                .blobStore(blobStore)
                .awsAuthentication(
                        authenticate ? AuthenticationType.AWS_V2_OR_V4 : AuthenticationType.NONE,
                        ACCESS_KEY,
                        SECRET_KEY)
                .stopTimeout(STOP_TIMEOUT_MS);
        if (tls) {
            s3Proxy.secureEndpoint(URI.create("https://127.0.0.1:" + builder.port))
                    .keyStore(builder.tlsKeyStore.toAbsolutePath().toString(), builder.tlsKeyStorePassword);
        } else {
            s3Proxy.endpoint(URI.create("http://127.0.0.1:" + builder.port));
        }
        this.proxy = s3Proxy.build();
        ServletContextHandler context = servletContext(proxy);
        EnumSet<DispatcherType> requests = EnumSet.of(DispatcherType.REQUEST);
        context.addFilter(new RequestCountsEndpoint(requestLog), "/*", requests);
        context.addFilter(new ObjectDropEndpoint(this), "/*", requests);
        context.addFilter(new RequestLogFilter(requestLog), "/*", requests);
        if (!profile.isUnlimited()) {
            context.addFilter(new NetworkEmulationFilter(profile), "/*", requests);
        }
        context.addFilter(faults, "/*", requests);
        this.randomFaults = builder.faultProfile == null ? null : new RandomFaults(builder.faultProfile);
        if (randomFaults != null) {
            context.addFilter(new RandomFaultFilter(randomFaults), "/*", requests);
        }
        if (builder.verifyTrailingChecksums) {
            context.addFilter(new TrailingChecksumFilter(), "/*", requests);
        }
        context.addFilter(answers, "/*", requests);
        context.addFilter(new SelfDelimitedResponseFilter(), "/*", requests);
    }

    /** A builder with the defaults: fresh temporary base directory, a free port, {@link NetworkProfile#LAN}. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts listening and creates the buckets given to the builder.
     *
     * @return this server
     * @throws IllegalStateException if S3Proxy does not start
     */
    public synchronized EmbeddedS3Server start() {
        if (endpoint != null) {
            return this;
        }
        try {
            proxy.start();
        } catch (Exception e) {
            throw new IllegalStateException("S3Proxy did not start on 127.0.0.1", e);
        }
        if (!"STARTED".equals(proxy.getState())) {
            throw new IllegalStateException("S3Proxy is " + proxy.getState() + " after start");
        }
        endpoint = tls
                ? URI.create("https://127.0.0.1:" + proxy.getSecurePort())
                : URI.create("http://127.0.0.1:" + proxy.getPort());
        initialBuckets.forEach(this::createBucket);
        return this;
    }

    /**
     * The base URI clients talk to, {@code http://127.0.0.1:<port>} ({@code https://} with {@link
     * Builder#tls}), path-style.
     */
    public URI endpoint() {
        if (endpoint == null) {
            throw new IllegalStateException("server not started");
        }
        return endpoint;
    }

    /** The port the server listens on. */
    public int port() {
        return endpoint().getPort();
    }

    /** {@link #ACCESS_KEY}. */
    public String accessKey() {
        return ACCESS_KEY;
    }

    /** {@link #SECRET_KEY}. */
    public String secretKey() {
        return SECRET_KEY;
    }

    /** {@link #REGION}. */
    public String region() {
        return REGION;
    }

    /** The directory holding one subdirectory per bucket. */
    public Path baseDir() {
        return baseDir;
    }

    /** Whether this server verifies signatures and stores objects on disk ({@link ServerMode}). */
    public ServerMode mode() {
        return mode;
    }

    /** The network profile this server applies. */
    public NetworkProfile profile() {
        return profile;
    }

    /** The requests received so far. */
    public RequestLog requestLog() {
        return requestLog;
    }

    /**
     * Answers the next {@code times} requests of one kind with an S3 error document instead of
     * serving them; replaces an earlier fault for the same kind. The requests are still logged.
     *
     * @param httpStatus e.g. 403 (not retried by AWS SDKs) or 503 (retried)
     * @param errorCode the S3 error code, e.g. {@code AccessDenied} or {@code SlowDown}
     */
    public void failNext(RequestKind kind, int times, int httpStatus, String errorCode) {
        faults.failNext(kind, times, httpStatus, errorCode);
    }

    /** The random fault profile, or null if the server injects none. */
    public FaultProfile faultProfile() {
        return randomFaults == null ? null : randomFaults.profile();
    }

    /** The random faults injected so far; {@link InjectedFaults#NONE} without a fault profile. */
    public InjectedFaults injectedFaults() {
        return randomFaults == null ? InjectedFaults.NONE : randomFaults.counts();
    }

    /**
     * When each answer held back on purpose so far (a slow answer of the fault profile) began to wait, epoch ms,
     * in order; the first 100,000 only. Empty without a fault profile. A benchmark uses it to tell the delays it
     * injected from delays of the client.
     */
    public List<Long> slowAnswerTimes() {
        return randomFaults == null ? List.of() : randomFaults.slowAnswerTimes();
    }

    /**
     * The rules that rewrite the real answers of S3Proxy into the wrong answers of other S3 stores; none
     * until a test arms one.
     */
    public AnswerRewriteFilter answers() {
        return answers;
    }

    /** Removes all faults not yet triggered. */
    public void clearFaults() {
        faults.clear();
    }

    /** Creates a bucket directly in the backend (no HTTP request, nothing logged); existing buckets are kept. */
    public void createBucket(String bucket) {
        if (!blobStore.containerExists(bucket)) {
            blobStore.createContainer(bucket);
        }
    }

    /**
     * Stores an object directly in the backend (no HTTP request, nothing logged): a fast way to
     * prepare thousands of keys for a listing or delete test.
     */
    public void putObjectDirectly(String bucket, String key, byte[] content) {
        blobStore.putBlob(
                PutObjectRequest.builder()
                        .bucket(bucket)
                        .key(key)
                        .contentLength((long) content.length)
                        .build(),
                new ByteArrayInputStream(content));
    }

    /**
     * Deletes every object whose key starts with {@code prefix}, and uploads in progress to such keys,
     * directly in the backend (no request, nothing logged): a benchmark releasing a finished run's objects.
     * In {@link ServerMode#FULL} the prefix names a folder of the filesystem backend ({@code run-1/} and
     * {@code run-1} alike); in {@link ServerMode#BENCHMARK} any key prefix.
     *
     * @param prefix a key prefix; empty for the whole bucket (the bucket itself stays)
     * @throws UncheckedIOException if a file cannot be deleted
     */
    public void dropObjects(String bucket, String prefix) {
        if (blobStore instanceof InMemoryBlobStore memory) {
            memory.drop(bucket, prefix);
        } else if (prefix.isEmpty()) {
            try (Stream<Path> children = Files.list(baseDir.resolve(bucket))) {
                children.forEach(EmbeddedS3Server::deleteRecursively);
            } catch (IOException e) {
                throw new UncheckedIOException("Could not empty bucket " + bucket, e);
            }
        } else {
            deleteRecursively(baseDir.resolve(bucket).resolve(prefix));
        }
    }

    private static boolean isGracefulStopTimeout(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TimeoutException) {
                return true;
            }
        }
        return false;
    }

    /** Stops the server and deletes the base directory if the server created it. */
    @Override
    public synchronized void close() throws Exception {
        Exception failure = null;
        try {
            proxy.stop();
        } catch (Exception e) {
            // Jetty's graceful stop times out while a client still holds an idle keep-alive connection;
            // the connection is closed anyway once the stop timeout has passed, so that is no failure.
            if (!isGracefulStopTimeout(e)) {
                failure = e;
            }
        }
        try {
            blobStore.close();
            if (ownsBaseDir) {
                deleteRecursively(baseDir);
            }
        } catch (RuntimeException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * S3Proxy builds its Jetty server privately; the servlet context is where filters can be added
     * before start. Reading the one private field keeps S3Proxy's own request handling untouched.
     */
    private static ServletContextHandler servletContext(S3Proxy proxy) {
        try {
            Field field = S3Proxy.class.getDeclaredField("server");
            field.setAccessible(true);
            Server server = (Server) field.get(proxy);
            return Objects.requireNonNull(
                    server.getDescendant(ServletContextHandler.class), "S3Proxy has no servlet context");
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("This S3Proxy version does not expose its Jetty server as expected", e);
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            List<Path> deepestFirst =
                    new ArrayList<>(paths.sorted(Comparator.reverseOrder()).toList());
            for (Path path : deepestFirst) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not delete " + root, e);
        }
    }

    /** Options for an {@link EmbeddedS3Server}. Not thread-safe. */
    public static final class Builder {
        private Path baseDir;
        private int port;
        private NetworkProfile profile = NetworkProfile.LAN;
        private final List<String> buckets = new ArrayList<>();
        private boolean keepRequestEntries = true;
        private boolean authenticate = true;
        private boolean verifyTrailingChecksums;
        private FaultProfile faultProfile;
        private Path tlsKeyStore;
        private String tlsKeyStorePassword;
        private ServerMode mode = ServerMode.FULL;

        private Builder() {}

        /**
         * {@link ServerMode#FULL} (the default: S3Proxy's filesystem backend, signatures verified) or
         * {@link ServerMode#BENCHMARK} (objects in memory, signatures accepted unverified; the base directory
         * is then created but holds nothing).
         */
        public Builder mode(ServerMode mode) {
            this.mode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * Serves HTTPS only, with the key and certificate chain of a PKCS12 key store (see {@link
         * TestCertificates#serverKeyStore()}); plain HTTP by default.
         */
        public Builder tls(Path keyStore, String password) {
            this.tlsKeyStore = Objects.requireNonNull(keyStore, "keyStore");
            this.tlsKeyStorePassword = Objects.requireNonNull(password, "password");
            return this;
        }

        /**
         * Whether S3Proxy checks request signatures (default). Without, any signature is accepted: a proxy
         * in front may then remove signed headers S3Proxy does not implement (server-side encryption).
         */
        public Builder authenticate(boolean authenticate) {
            this.authenticate = authenticate;
            return this;
        }

        /**
         * Whether the {@link RequestLog} keeps every request (default) or only counts per kind, for a
         * long-running server whose memory must not grow with the number of requests.
         */
        public Builder keepRequestEntries(boolean keep) {
            this.keepRequestEntries = keep;
            return this;
        }

        /**
         * Whether the trailing CRC32C of aws-chunked uploads is checked, as S3 does, answering 400
         * BadDigest on a mismatch. Off by default: each such body is then held in memory before S3Proxy
         * sees it, which a benchmark's server with many large parts in flight should not pay.
         */
        public Builder verifyTrailingChecksums(boolean verify) {
            this.verifyTrailingChecksums = verify;
            return this;
        }

        /**
         * Random faults to inject into signed requests (500, 503, closed connections); none by default.
         *
         * @param profile the fault rates and seed, or null for none
         */
        public Builder faultProfile(FaultProfile profile) {
            this.faultProfile = profile;
            return this;
        }

        /** Directory for the filesystem backend; kept on close. Default: a fresh temp dir, deleted on close. */
        public Builder baseDir(Path baseDir) {
            this.baseDir = Objects.requireNonNull(baseDir, "baseDir");
            return this;
        }

        /** TCP port on 127.0.0.1; 0 (the default) picks a free port. */
        public Builder port(int port) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("port must be 0..65535, was " + port);
            }
            this.port = port;
            return this;
        }

        /** The network behaviour to emulate; default {@link NetworkProfile#LAN}. */
        public Builder profile(NetworkProfile profile) {
            this.profile = Objects.requireNonNull(profile, "profile");
            return this;
        }

        /** Buckets to create at start. */
        public Builder bucket(String... names) {
            buckets.addAll(List.of(names));
            return this;
        }

        /**
         * Creates the server without starting it.
         *
         * @throws UncheckedIOException if the base directory cannot be created
         */
        public EmbeddedS3Server build() {
            try {
                return new EmbeddedS3Server(this);
            } catch (IOException e) {
                throw new UncheckedIOException("Could not prepare the S3 server's base directory", e);
            }
        }

        /** Creates and starts the server. */
        public EmbeddedS3Server start() {
            return build().start();
        }
    }
}
