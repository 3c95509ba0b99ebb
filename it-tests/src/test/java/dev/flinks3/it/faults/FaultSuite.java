package dev.flinks3.it.faults;

import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.testserver.EmbeddedS3Server;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.provider.Arguments;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Base of the fault suites: the shared S3Proxy, a {@link FaultInjectingProxy} in front of it, our
 * filesystem through the proxy (configured by {@link #options()}), a direct SDK client for preparing
 * and checking, and the faults every request kind is tried with.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FaultSuite {

    /** The per-attempt timeout of the suites' filesystems; a delayed answer is held back much longer. */
    static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(2);

    static final Duration HANG = ATTEMPT_TIMEOUT.multipliedBy(3);

    /** The SDK's standard strategy waits at most twice its 100 ms base before a first retry. */
    static final long FIRST_RETRY_BACKOFF_LIMIT_MS = 200;
    /** Throttled retries wait at least half of the 1 s throttling base. */
    static final long THROTTLED_RETRY_BACKOFF_MIN_MS = 500;

    protected EmbeddedS3Server server;
    protected FaultInjectingProxy proxy;
    protected ProxiedFileSystem fileSystem;
    protected S3Client s3;
    protected String bucket;
    protected final OutcomeTable outcomes = new OutcomeTable(getClass().getSimpleName());

    /** Options of this suite's filesystem beyond the part size (the attempt timeout is {@link #ATTEMPT_TIMEOUT}). */
    abstract Map<String, String> options();

    /** {@code options} with {@code s3.client: crt}, for the suites that run on the CRT-based S3 client. */
    static Map<String, String> onTheCrtClient(Map<String, String> options) {
        Map<String, String> crt = new java.util.HashMap<>(options);
        crt.put("s3.client", "crt");
        return crt;
    }

    @BeforeAll
    void startProxyAndFileSystem() {
        server = SharedS3ProxyTarget.server();
        bucket = SharedS3ProxyTarget.bucket();
        s3 = SharedS3ProxyTarget.sdkClient();
        proxy = new FaultInjectingProxy(server.endpoint());
        Map<String, String> options = new java.util.HashMap<>(Map.of("s3.upload.min.part.size", "5mb"));
        options.putAll(options());
        // The configuration rejects an attempt timeout below 5 s for 5 MiB parts (1 MiB/s), as a link may be
        // slow; on loopback a part takes milliseconds, and a short timeout keeps the delayed answers short.
        fileSystem = ProxiedFileSystem.create(
                proxy, options, s3 -> s3.client(c -> c.apiCallAttemptTimeout(ATTEMPT_TIMEOUT)));
    }

    @AfterAll
    void stop() throws Exception {
        outcomes.write();
        try (S3Client closing = s3;
                FaultInjectingProxy stopping = proxy) {
            fileSystem.close();
        }
    }

    @AfterEach
    void disarm() {
        proxy.clear();
    }

    /** A context in a fresh directory {@code s3://bucket/<suite>/<scenario>-<fault>-<uuid>}. */
    Scenario.Context newContext(Scenario scenario, Fault fault) {
        String name = scenario + "-" + fault.type() + "-" + UUID.randomUUID();
        Path dir = new Path("s3://" + bucket + "/" + getClass().getSimpleName() + "/" + name);
        return new Scenario.Context(fileSystem.fs(), s3, bucket, dir);
    }

    /** The faults every request kind is tried with. */
    static List<Fault> faults() {
        return List.of(
                Fault.internalError(),
                Fault.slowDown(),
                Fault.tooManyRequests(),
                Fault.resetBeforeResponse(),
                Fault.resetMidBody(),
                Fault.closeMidBody(),
                Fault.dropResponse(),
                Fault.delayFirstByte(HANG));
    }

    /** Every scenario with every fault that applies to its request kind. */
    static Stream<Arguments> scenariosAndFaults() {
        return Stream.of(Scenario.values())
                .flatMap(scenario -> faults().stream().filter(scenario::accepts).map(f -> Arguments.of(scenario, f)));
    }

    static boolean isThrottling(Fault fault) {
        return fault.type() == Fault.Type.ERROR_ANSWER && (fault.status() == 503 || fault.status() == 429);
    }
}
