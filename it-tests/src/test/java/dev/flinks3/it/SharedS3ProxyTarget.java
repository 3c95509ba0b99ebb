package dev.flinks3.it;

import dev.flinks3.testserver.EmbeddedS3Server;
import org.apache.flink.configuration.Configuration;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The shared embedded S3Proxy ({@link SharedS3Proxy}) for test classes that must live outside this
 * package, such as subclasses of Flink's suites that override package-private test methods.
 */
public final class SharedS3ProxyTarget {

    private SharedS3ProxyTarget() {}

    /** The running server, started on first use. */
    public static EmbeddedS3Server server() {
        return SharedS3Proxy.server();
    }

    /** The server as a test target (endpoint, keys, region, bucket). */
    public static S3TestTarget target() {
        return SharedS3Proxy.target();
    }

    /** The bucket the tests write to. */
    public static String bucket() {
        return SharedS3Proxy.BUCKET;
    }

    /** Flink configuration pointing {@code s3://} and {@code s3a://} at the server. */
    public static Configuration flinkConfiguration() {
        return SharedS3Proxy.target().flinkConfiguration();
    }

    /** A plain AWS SDK client on the server, for checks independent of the code under test; close it. */
    public static S3Client sdkClient() {
        return SharedS3Proxy.target().sdkClient();
    }
}
