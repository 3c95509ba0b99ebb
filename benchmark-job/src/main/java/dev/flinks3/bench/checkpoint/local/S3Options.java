package dev.flinks3.bench.checkpoint.local;

import dev.flinks3.bench.common.Reachability;
import dev.flinks3.bench.common.UsageException;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.FaultProfile;
import dev.flinks3.testserver.NetworkProfile;
import dev.flinks3.testserver.ServerMode;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Where the benchmark's checkpoints go: by default an embedded S3 server with a network profile;
 * with {@code --endpoint}, any S3 or S3-compatible endpoint, configured with {@code -Ds3.*=...}
 * options (credentials may also come from the plugins' default AWS credential chains).
 * A picocli mixin.
 */
public final class S3Options {

    @Option(
            names = "--s3-profile",
            defaultValue = "wan",
            description = "Network profile of the embedded S3 server: lan, wan or rescale (default: ${DEFAULT-VALUE}).")
    String profile;

    @Option(
            names = "--endpoint",
            description =
                    "Use this S3 endpoint instead of the embedded server, e.g. https://s3.eu-west-1.amazonaws.com.")
    URI endpoint;

    @Option(
            names = "--bucket",
            defaultValue = "flink-benchmark",
            description = "Bucket for checkpoints (default: ${DEFAULT-VALUE}); created on the embedded server.")
    String bucket;

    @Option(
            names = "--s3-faults",
            defaultValue = "0",
            description =
                    "Fraction of signed requests the embedded server answers with 500 InternalError or "
                            + "503 SlowDown; a sixth of it has the connection closed instead (default: ${DEFAULT-VALUE}, none).")
    double faultRate;

    @Option(
            names = "--s3-fault-seed",
            defaultValue = "" + FaultProfile.DEFAULT_SEED,
            description = "Seed of the embedded server's random faults (default: ${DEFAULT-VALUE}).")
    long faultSeed;

    @Option(
            names = "--server-mode",
            defaultValue = "benchmark",
            description = "What the embedded S3 server charges per request: benchmark (objects in its heap, parts"
                    + " joined without copying, signatures accepted unverified: what S3 does not charge the"
                    + " client) or full (S3Proxy's filesystem backend, every signature verified)"
                    + " (default: ${DEFAULT-VALUE}).")
    String serverMode;

    @Option(
            names = "--s3-mid-body-resets",
            defaultValue = "0",
            description = "Fraction of signed requests with a body whose connection the embedded server closes half-way"
                    + " through it (an UploadPart's body, a GET's answer) (default: ${DEFAULT-VALUE}, none).")
    double midBodyResetRate;

    @Option(
            names = "--s3-slow-answers",
            defaultValue = "0",
            description = "Fraction of signed requests the embedded server holds back --s3-slow-answer-time before"
                    + " serving them (default: ${DEFAULT-VALUE}, none).")
    double slowRate;

    @Option(
            names = "--s3-slow-answer-time",
            defaultValue = "12s",
            converter = dev.flinks3.bench.checkpoint.job.DurationConverter.class,
            description = "How long a slow answer is held back, e.g. 12s: past the client's attempt timeout"
                    + " (s3.request.attempt-timeout) to make it retry (default: ${DEFAULT-VALUE}).")
    java.time.Duration slowAnswerTime;

    @Option(
            names = "-D",
            paramLabel = "KEY=VALUE",
            description = "A Flink configuration entry for every contender, e.g. -Ds3.access-key=..., -Ds3.region=...")
    Map<String, String> flinkOptions = new LinkedHashMap<>();

    /**
     * Checks what can be checked before a contender runs: the profile's name and, for {@code --endpoint},
     * that something answers there.
     *
     * @throws UsageException naming the option and what was expected
     */
    public void validate() {
        try {
            NetworkProfile.named(profile);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--s3-profile: " + e.getMessage(), e);
        }
        if (endpoint != null) {
            Reachability.requireReachable("--endpoint", endpoint, "an S3 endpoint");
        }
        faultProfile();
        serverMode();
    }

    /**
     * The embedded server's {@code --server-mode}.
     *
     * @throws UsageException naming the option, the value and the allowed ones
     */
    public ServerMode serverMode() {
        try {
            return ServerMode.named(serverMode);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--server-mode: " + e.getMessage(), e);
        }
    }

    /** Whether the embedded server is used. */
    public boolean embedded() {
        return endpoint == null;
    }

    public String profile() {
        return embedded() ? profile : "external";
    }

    /**
     * The embedded server's random faults, or null for none.
     *
     * @throws IllegalArgumentException if the rate is outside [0, 1], or faults are asked of an external endpoint
     */
    public FaultProfile faultProfile() {
        if (faultRate == 0 && midBodyResetRate == 0 && slowRate == 0) {
            return null;
        }
        if (!(faultRate >= 0 && faultRate <= 1)) {
            throw new IllegalArgumentException("--s3-faults must be a fraction in [0, 1], was " + faultRate);
        }
        if (!(midBodyResetRate >= 0 && midBodyResetRate <= 1)) {
            throw new IllegalArgumentException(
                    "--s3-mid-body-resets must be a fraction in [0, 1], was " + midBodyResetRate);
        }
        if (!(slowRate >= 0 && slowRate <= 1)) {
            throw new IllegalArgumentException("--s3-slow-answers must be a fraction in [0, 1], was " + slowRate);
        }
        if (!embedded()) {
            throw new IllegalArgumentException(
                    "--s3-faults needs the embedded server; it cannot be used with --endpoint");
        }
        return FaultProfile.of(faultRate)
                .withSeed(faultSeed)
                .withMidBodyResets(midBodyResetRate)
                .withSlowAnswers(slowRate, slowAnswerTime.toMillis());
    }

    public URI endpoint() {
        return endpoint;
    }

    public String bucket() {
        return bucket;
    }

    /**
     * The Flink configuration the plugins get, in the spellings all of Flink's S3 plugins read
     * (docs/benchmarks/README.md, "Method"): {@code s3.endpoint}, {@code s3.path.style.access},
     * {@code s3.access-key}, {@code s3.secret-key}, and a region for SDK v2 based plugins
     * ({@code s3.region}; the hadoop plugin mirrors {@code s3.endpoint.region}). User {@code -D}
     * entries come last and win.
     *
     * @param server the embedded server, or null for an external endpoint
     */
    public Map<String, String> flinkConfiguration(EmbeddedS3Server server) {
        Map<String, String> conf = new LinkedHashMap<>();
        if (server != null) {
            conf.put("s3.endpoint", server.endpoint().toString());
            conf.put("s3.path.style.access", "true");
            conf.put("s3.access-key", server.accessKey());
            conf.put("s3.secret-key", server.secretKey());
            conf.put("s3.region", server.region());
            conf.put("s3.endpoint.region", server.region());
        } else {
            conf.put("s3.endpoint", endpoint.toString());
        }
        conf.putAll(flinkOptions);
        return conf;
    }
}
