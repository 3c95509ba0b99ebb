package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.UploadSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * Issue 17: storage class, requester pays and access points on the HTTP requests the SDK builds with
 * {@link S3ClientOwner#bucketInterceptors}: the last interceptor records each request as it would be
 * sent (signed, with its resolved host) and stops it there, so nothing leaves the JVM.
 */
@Timeout(30)
class BucketInterceptorsTest {

    private static final String ACCESS_POINT = "arn:aws:s3:us-west-2:123456789012:accesspoint/flink";

    private final List<SdkHttpRequest> sent = new CopyOnWriteArrayList<>();
    private S3AsyncClient s3;

    @AfterEach
    void close() {
        if (s3 != null) {
            s3.close();
        }
    }

    private S3AsyncClient client(S3Settings settings) {
        List<ExecutionInterceptor> interceptors = new ArrayList<>(S3ClientOwner.bucketInterceptors(settings));
        interceptors.add(new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                sent.add(context.httpRequest());
                throw new IllegalStateException("recorded, not sent");
            }
        });
        s3 = S3AsyncClient.builder()
                .region(Region.US_WEST_2)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
                .overrideConfiguration(
                        o -> o.executionInterceptors(interceptors).retryStrategy(r -> r.maxAttempts(1)))
                .build();
        return s3;
    }

    private SdkHttpRequest send(Function<S3AsyncClient, CompletableFuture<?>> call) {
        int before = sent.size();
        assertThatThrownBy(() -> call.apply(s3).join()).hasRootCauseMessage("recorded, not sent");
        assertThat(sent).hasSize(before + 1);
        return sent.get(before);
    }

    @Test
    void theStorageClassGoesOnEveryRequestThatCreatesAnObjectAndNoOther() {
        client(S3Settings.builder().upload(u -> u.storageClass("STANDARD_IA")).build());

        assertThat(send(c -> c.putObject(b -> b.bucket("b").key("k"), AsyncRequestBody.fromString("x")))
                        .firstMatchingHeader("x-amz-storage-class"))
                .contains("STANDARD_IA");
        assertThat(send(c -> c.createMultipartUpload(b -> b.bucket("b").key("k")))
                        .firstMatchingHeader("x-amz-storage-class"))
                .contains("STANDARD_IA");
        assertThat(send(c -> c.copyObject(b -> b.sourceBucket("b")
                                .sourceKey("k")
                                .destinationBucket("b")
                                .destinationKey("k2")))
                        .firstMatchingHeader("x-amz-storage-class"))
                .contains("STANDARD_IA");
        assertThat(send(c -> c.uploadPart(
                                b -> b.bucket("b").key("k").uploadId("u").partNumber(1),
                                AsyncRequestBody.fromString("x")))
                        .firstMatchingHeader("x-amz-storage-class"))
                .isEmpty();
        assertThat(send(c -> c.headObject(b -> b.bucket("b").key("k"))).firstMatchingHeader("x-amz-storage-class"))
                .isEmpty();
    }

    @Test
    void requesterPaysIsSignedOnEveryRequestKind() {
        client(S3Settings.builder().client(c -> c.requesterPays(true)).build());

        List<SdkHttpRequest> requests = List.of(
                send(c -> c.headObject(b -> b.bucket("b").key("k"))),
                send(c -> c.getObject(b -> b.bucket("b").key("k"), AsyncResponseTransformer.toBytes())),
                send(c -> c.listObjectsV2(b -> b.bucket("b"))),
                send(c -> c.putObject(b -> b.bucket("b").key("k"), AsyncRequestBody.fromString("x"))),
                send(c -> c.deleteObject(b -> b.bucket("b").key("k"))),
                send(c -> c.listMultipartUploads(b -> b.bucket("b"))));

        assertThat(requests).allSatisfy(request -> {
            assertThat(request.firstMatchingHeader("x-amz-request-payer")).contains("requester");
            assertThat(request.firstMatchingHeader("Authorization").orElseThrow())
                    .contains("x-amz-request-payer");
        });
    }

    @Test
    void withoutTheOptionsNothingIsAdded() {
        client(S3Settings.builder().build());
        assertThat(S3ClientOwner.bucketInterceptors(S3Settings.builder().build()))
                .isEmpty();

        SdkHttpRequest put = send(c -> c.putObject(b -> b.bucket("b").key("k"), AsyncRequestBody.fromString("x")));
        assertThat(put.firstMatchingHeader("x-amz-storage-class")).isEmpty();
        assertThat(put.firstMatchingHeader("x-amz-request-payer")).isEmpty();
    }

    @Test
    void aBucketWithAnAccessPointIsSentToTheAccessPointsHostAndOthersAreNot() {
        client(S3Settings.builder()
                .client(c -> c.accessPoints(Map.of("lake", ACCESS_POINT)))
                .build());

        SdkHttpRequest head = send(c -> c.headObject(b -> b.bucket("lake").key("dir/k")));
        assertThat(head.host()).isEqualTo("flink-123456789012.s3-accesspoint.us-west-2.amazonaws.com");
        assertThat(head.encodedPath()).isEqualTo("/dir/k");
        assertThat(head.firstMatchingHeader("Authorization").orElseThrow()).contains("/us-west-2/s3/aws4_request");

        SdkHttpRequest list = send(c -> c.listObjectsV2(b -> b.bucket("lake").prefix("dir/")));
        assertThat(list.host()).isEqualTo("flink-123456789012.s3-accesspoint.us-west-2.amazonaws.com");

        SdkHttpRequest copy = send(c -> c.copyObject(b ->
                b.sourceBucket("lake").sourceKey("a").destinationBucket("lake").destinationKey("b")));
        assertThat(copy.host()).isEqualTo("flink-123456789012.s3-accesspoint.us-west-2.amazonaws.com");
        assertThat(copy.firstMatchingHeader("x-amz-copy-source"))
                .contains("arn%3Aaws%3As3%3Aus-west-2%3A123456789012%3Aaccesspoint/flink/object/a");

        SdkHttpRequest other = send(c -> c.headObject(b -> b.bucket("other").key("k")));
        assertThat(other.host()).isEqualTo("other.s3.us-west-2.amazonaws.com");
    }

    @Test
    void anAccessPointAliasIsUsedAsTheBucket() {
        client(S3Settings.builder()
                .client(c -> c.accessPoints(Map.of("lake", "flink-ap-abcdefgh-s3alias")))
                .build());

        assertThat(send(c -> c.headObject(b -> b.bucket("lake").key("k"))).host())
                .isEqualTo("flink-ap-abcdefgh-s3alias.s3.us-west-2.amazonaws.com");
    }

    @Test
    void anUnknownStorageClassIsRefused() {
        assertThatThrownBy(() -> S3Settings.builder().upload(u -> u.storageClass("FROZEN")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("FROZEN");
    }

    @Test
    void theSeamsStorageClassesAreTheSdksAndEachBecomesItsSdkValue() {
        assertThat(UploadSettings.STORAGE_CLASSES)
                .containsExactlyInAnyOrderElementsOf(StorageClass.knownValues().stream()
                        .map(StorageClass::toString)
                        .collect(Collectors.toList()));
        for (String name : UploadSettings.STORAGE_CLASSES) {
            BucketRequestOptions options = new BucketRequestOptions(
                    S3Settings.builder().upload(u -> u.storageClass(name)).build());
            Context.ModifyRequest create = () ->
                    CreateMultipartUploadRequest.builder().bucket("b").key("k").build();
            assertThat(((CreateMultipartUploadRequest) options.modifyRequest(create, new ExecutionAttributes()))
                            .storageClass())
                    .isEqualTo(StorageClass.fromValue(name))
                    .isNotEqualTo(StorageClass.UNKNOWN_TO_SDK_VERSION);
        }
    }
}
