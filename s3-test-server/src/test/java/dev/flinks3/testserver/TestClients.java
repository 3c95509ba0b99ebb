package dev.flinks3.testserver;

import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** Plain AWS SDK v2 clients for the embedded server, as any S3 client would configure them. */
final class TestClients {

    private TestClients() {}

    static S3Client s3(EmbeddedS3Server server) {
        return s3(server.endpoint(), server.accessKey(), server.secretKey());
    }

    static S3Client s3(URI endpoint, String accessKey, String secretKey) {
        return S3Client.builder()
                .endpointOverride(endpoint)
                .region(Region.of(EmbeddedS3Server.REGION))
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .build();
    }
}
