package dev.flinks3.it;

import java.net.URI;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * One S3-compatible server the integration tests run against, and the bucket they use there.
 *
 * @param name shown in test names and skip reasons
 * @param endpoint the server's base URI; path-style addressing is used
 * @param accessKey access key id
 * @param secretKey secret access key; never printed
 * @param region signing region
 * @param bucket an existing bucket the tests may write to
 */
public record S3TestTarget(
        String name, URI endpoint, String accessKey, String secretKey, String region, String bucket) {

    /** The Flink configuration that points our filesystem at this target, with Flink's native key spellings. */
    public Configuration flinkConfiguration() {
        return flinkConfiguration(Map.of());
    }

    /** As {@link #flinkConfiguration()}, with extra {@code s3.*} options. */
    public Configuration flinkConfiguration(Map<String, String> extra) {
        Configuration configuration = Configuration.fromMap(Map.of(
                "s3.endpoint", endpoint.toString(),
                "s3.access-key", accessKey,
                "s3.secret-key", secretKey,
                "s3.region", region,
                "s3.path-style-access", "true"));
        extra.forEach(configuration::setString);
        return configuration;
    }

    /** The same target reached through another endpoint, e.g. a fault-injecting proxy in front of it. */
    S3TestTarget via(URI otherEndpoint) {
        return new S3TestTarget(name + " via " + otherEndpoint, otherEndpoint, accessKey, secretKey, region, bucket);
    }

    /**
     * A plain AWS SDK client for preparing and checking objects independently of the code under test. It
     * sends checksums only where an operation requires one, as servers without the SDK's trailing
     * checksums (Ceph RGW 16.2) need; checksums of uploads are the code under test's business.
     */
    public S3Client sdkClient() {
        return S3Client.builder()
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .endpointOverride(endpoint)
                .region(Region.of(region))
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .build();
    }

    @Override
    public String toString() {
        return name + " (" + endpoint + ", bucket " + bucket + ")";
    }
}
