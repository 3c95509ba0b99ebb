package dev.flinks3.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * The answers to CreateMultipartUpload and CompleteMultipartUpload carry a {@code Content-Length}, also when the connection closes after them
 * (asked for here with {@code Connection: close}): a client that cannot read a body delimited by the
 * connection's end (aws-c-http) must still get the upload id.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SelfDelimitedResponseTest {

    private static final String BUCKET = "framing";

    @Test
    void multipartUploadAnswersCarryTheirLength() throws Exception {
        List<String> seen = new ArrayList<>();
        ExecutionInterceptor closeAndRecord = new ExecutionInterceptor() {
            @Override
            public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
                return context.httpRequest().toBuilder()
                        .putHeader("Connection", "close")
                        .build();
            }

            @Override
            public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
                if (context.httpRequest().method().name().equals("POST")
                        && !context.httpRequest().rawQueryParameters().containsKey("delete")) {
                    seen.add(context.httpResponse()
                                    .firstMatchingHeader("Content-Length")
                                    .orElse("none") + " "
                            + context.httpResponse()
                                    .firstMatchingHeader("Transfer-Encoding")
                                    .orElse("-"));
                }
            }
        };
        try (EmbeddedS3Server server = EmbeddedS3Server.builder().bucket(BUCKET).start();
                S3Client s3 = S3Client.builder()
                        .endpointOverride(server.endpoint())
                        .region(Region.of(EmbeddedS3Server.REGION))
                        .forcePathStyle(true)
                        .credentialsProvider(StaticCredentialsProvider.create(
                                AwsBasicCredentials.create(server.accessKey(), server.secretKey())))
                        .overrideConfiguration(c -> c.addExecutionInterceptor(closeAndRecord))
                        .build()) {
            String uploadId =
                    s3.createMultipartUpload(b -> b.bucket(BUCKET).key("k")).uploadId();
            String etag = s3.uploadPart(
                            b -> b.bucket(BUCKET).key("k").uploadId(uploadId).partNumber(1),
                            RequestBody.fromBytes(new byte[] {1, 2, 3}))
                    .eTag();
            s3.completeMultipartUpload(b -> b.bucket(BUCKET)
                    .key("k")
                    .uploadId(uploadId)
                    .multipartUpload(m -> m.parts(
                            CompletedPart.builder().partNumber(1).eTag(etag).build())));
            s3.listObjectsV2(b -> b.bucket(BUCKET));
            s3.deleteObjects(b -> b.bucket(BUCKET).delete(d -> d.objects(o -> o.key("k"))));

            assertThat(uploadId).isNotBlank();
            assertThat(seen).hasSize(2).allSatisfy(framing -> {
                assertThat(framing).doesNotStartWith("none");
                assertThat(Long.parseLong(framing.split(" ")[0])).isPositive();
            });
        }
    }
}
