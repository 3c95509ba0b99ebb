package dev.flinks3.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.Reader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The single-node Ceph RADOS Gateway that {@code s3-test-server/ceph-rgw.sh start} runs on 127.0.0.1, as
 * a test target. It is found through the variables that script writes to {@code rgw.env} in its data
 * folder:
 *
 * <pre>
 * FLINKS3_CEPH_ENDPOINT, FLINKS3_CEPH_ACCESS_KEY, FLINKS3_CEPH_SECRET_KEY, FLINKS3_CEPH_BUCKET, FLINKS3_CEPH_REGION
 * </pre>
 *
 * <p>taken from the environment (CI exports them after starting the gateway: the Ceph tests then run and
 * fail if it does not answer), else from {@code $FLINKS3_CEPH_DIR/rgw.env} (default {@code
 * /tmp/flinks3-ceph/rgw.env}, as the script leaves it when started by hand) if the gateway answers there.
 * Without either, the Ceph tests are skipped and print why ({@code FLINKS3_CEPH_UNAVAILABLE} carries the
 * reason CI could not start it).
 */
public final class CephRgw {

    static final String ENDPOINT = "FLINKS3_CEPH_ENDPOINT";
    static final String ACCESS_KEY = "FLINKS3_CEPH_ACCESS_KEY";
    static final String SECRET_KEY = "FLINKS3_CEPH_SECRET_KEY";
    static final String BUCKET = "FLINKS3_CEPH_BUCKET";
    static final String REGION = "FLINKS3_CEPH_REGION";
    static final String DIR = "FLINKS3_CEPH_DIR";
    static final String UNAVAILABLE = "FLINKS3_CEPH_UNAVAILABLE";
    static final String DEFAULT_DIR = "/tmp/flinks3-ceph";

    private static Optional<S3TestTarget> found;
    private static String skipReason;

    private CephRgw() {}

    /** The gateway as a target; skips the calling test (printing why) when none is running. */
    public static synchronized S3TestTarget target() {
        if (found == null) {
            found = find(System.getenv());
            if (found.isEmpty()) {
                System.out.println("Skipping the Ceph RGW tests: " + skipReason);
            }
        }
        assumeTrue(found.isPresent(), () -> skipReason);
        return found.get();
    }

    /** The test bucket on the gateway; skips like {@link #target()}. */
    public static String bucket() {
        return target().bucket();
    }

    /** Flink configuration with only endpoint, keys, region and path style; skips like {@link #target()}. */
    public static Configuration flinkConfiguration() {
        return target().flinkConfiguration();
    }

    /** As {@link #flinkConfiguration()}, with extra {@code s3.*} options. */
    public static Configuration flinkConfiguration(Map<String, String> extra) {
        return target().flinkConfiguration(extra);
    }

    /** A plain SDK client on the gateway for checks independent of the code under test; close it. */
    public static S3Client sdkClient() {
        return target().sdkClient();
    }

    static Optional<S3TestTarget> find(Map<String, String> environment) {
        if (environment.get(ENDPOINT) != null) {
            return Optional.of(fromVariables(environment::get, "the environment"));
        }
        Path file = Path.of(environment.getOrDefault(DIR, DEFAULT_DIR), "rgw.env");
        if (!Files.isRegularFile(file)) {
            String unavailable = environment.get(UNAVAILABLE);
            skipReason = unavailable != null
                    ? unavailable
                    : "no Ceph RGW running: start one with 's3-test-server/ceph-rgw.sh start' (installs Debian's"
                            + " Ceph packages if missing, needs root then), which writes " + file
                            + ", or set " + ENDPOINT + ", " + ACCESS_KEY + ", " + SECRET_KEY + " and " + BUCKET;
            return Optional.empty();
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        } catch (IOException e) {
            skipReason = "cannot read " + file + ": " + e;
            return Optional.empty();
        }
        S3TestTarget target = fromVariables(properties::getProperty, file.toString());
        if (!answers(target.endpoint())) {
            skipReason = file + " names " + target.endpoint() + ", but nothing answers there: start the gateway"
                    + " again with 's3-test-server/ceph-rgw.sh start'";
            return Optional.empty();
        }
        return Optional.of(target);
    }

    private static S3TestTarget fromVariables(java.util.function.Function<String, String> variables, String from) {
        String region = variables.apply(REGION);
        return new S3TestTarget(
                "Ceph RGW from " + from,
                URI.create(required(variables, ENDPOINT, from)),
                required(variables, ACCESS_KEY, from),
                required(variables, SECRET_KEY, from),
                region == null ? "us-east-1" : region,
                required(variables, BUCKET, from));
    }

    private static String required(java.util.function.Function<String, String> variables, String name, String from) {
        String value = variables.apply(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(name + " is missing in " + from + " (" + ENDPOINT + " is set there)");
        }
        return value;
    }

    private static boolean answers(URI endpoint) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(endpoint.getHost(), endpoint.getPort()), 2_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
