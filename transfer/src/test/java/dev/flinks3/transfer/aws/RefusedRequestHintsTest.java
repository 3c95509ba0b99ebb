package dev.flinks3.transfer.aws;

import static dev.flinks3.transfer.sdk.S3RetryStrategyTest.codelessError;
import static dev.flinks3.transfer.sdk.S3RetryStrategyTest.s3Error;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.transfer.S3Location;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** The hints of {@link S3Errors#translate} for answers that refuse who signed a request, where or when. */
@Timeout(30)
class RefusedRequestHintsTest {

    private static final S3Location LOCATION = S3Location.of("s3", "bucket", "dir/file");

    @Test
    void accessDeniedNamesTheIamActionOfTheOperationAndItsResource() {
        assertThat(S3Errors.translate("PutObject", LOCATION, s3Error(403, "AccessDenied")))
                .hasMessageContaining("s3:PutObject on arn:aws:s3:::bucket/dir/file");
        assertThat(S3Errors.translate("GetObject", LOCATION, s3Error(403, "AccessDenied")))
                .hasMessageContaining("s3:GetObject on arn:aws:s3:::bucket/dir/file");
        assertThat(S3Errors.translate("ListObjectsV2", "s3://bucket/dir/", s3Error(403, "AccessDenied")))
                .hasMessageContaining("s3:ListBucket on arn:aws:s3:::bucket");
        assertThat(S3Errors.translate(
                        "DeleteObjects", "s3://bucket/dir/a and 3 more keys", s3Error(403, "AccessDenied")))
                .hasMessageContaining("s3:DeleteObject on arn:aws:s3:::bucket/*");
        assertThat(S3Errors.translate("AbortMultipartUpload", LOCATION, s3Error(403, "AccessDenied")))
                .hasMessageContaining("s3:AbortMultipartUpload");
        assertThat(S3Errors.translate("ListMultipartUploads", "s3://bucket/dir/", s3Error(403, "AccessDenied")))
                .hasMessageContaining("s3:ListBucketMultipartUploads on arn:aws:s3:::bucket");
        assertThat(S3Errors.translate("ListParts", LOCATION + " (upload id u)", s3Error(403, "AccessDenied")))
                .hasMessageContaining("s3:ListMultipartUploadParts");
        assertThat(S3Errors.translate("UploadPartCopy", LOCATION, s3Error(403, "AccessDenied")))
                .hasMessageContaining("s3:GetObject on the source and s3:PutObject on the target");
    }

    @Test
    void accessDeniedToAMultipartRequestNamesTheActionAndTheKmsPermissions() {
        assertThat(S3Errors.translate("CreateMultipartUpload", LOCATION, s3Error(403, "AccessDenied")))
                .hasMessageContaining("s3:PutObject")
                .hasMessageContaining("kms:Decrypt");
    }

    @Test
    void aHeadRefusedWith403NamesListBucket() {
        assertThat(S3Errors.translate("HeadObject", LOCATION, codelessError(403)))
                .hasMessageContaining("s3:GetObject on arn:aws:s3:::bucket/dir/file")
                .hasMessageContaining("s3:ListBucket on arn:aws:s3:::bucket")
                .hasMessageContaining("exists(), mkdirs() and create()");
    }

    @Test
    void aSignatureMismatchNamesTheSecretKeyAndWhatMayChangeARequest() {
        assertThat(S3Errors.translate("GetObject", LOCATION, s3Error(403, "SignatureDoesNotMatch")))
                .hasMessageContaining("s3.secret-key")
                .hasMessageContaining("proxy");
    }

    @Test
    void aClockSkewSaysByHowMuchFromTheAnswersTimes() {
        S3Exception skewed = answer(
                403,
                "RequestTimeTooSkewed",
                "The difference between the request time and the current time is too large.",
                "<RequestTime>20261207T100000Z</RequestTime><ServerTime>2026-12-07T10:20:05Z</ServerTime>",
                SdkHttpResponse.builder().statusCode(403).build());

        assertThat(RefusedRequestHints.skew(skewed)).contains(Duration.ofSeconds(1205));
        assertThat(S3Errors.translate("PutObject", LOCATION, skewed))
                .hasMessageContaining("1205 s ahead of")
                .hasMessageContaining("15 minutes")
                .hasMessageContaining("NTP");
    }

    @Test
    void aWrongRegionNamesTheRegionTheServerGives() {
        S3Exception malformed = answer(
                400,
                "AuthorizationHeaderMalformed",
                "The authorization header is malformed; the region 'us-east-1' is wrong; expecting 'eu-west-1'",
                "<Region>eu-west-1</Region>",
                SdkHttpResponse.builder().statusCode(400).build());
        assertThat(S3Errors.translate("PutObject", LOCATION, malformed))
                .hasMessageContaining("region 'eu-west-1'")
                .hasMessageContaining("s3.region: eu-west-1")
                .hasMessageContaining("s3.bucket.bucket.region: eu-west-1");

        S3Exception redirect = answer(
                301,
                null,
                null,
                "",
                SdkHttpResponse.builder()
                        .statusCode(301)
                        .putHeader("x-amz-bucket-region", "ap-south-1")
                        .build());
        assertThat(S3Errors.translate("HeadObject", LOCATION, redirect)).hasMessageContaining("s3.region: ap-south-1");
    }

    @Test
    void otherRefusalsGetNoSuchHint() {
        assertThat(RefusedRequestHints.hint("PutObject", LOCATION, s3Error(400, "InvalidArgument"), "InvalidArgument"))
                .isNull();
        assertThat(RefusedRequestHints.hint("PutObject", LOCATION, s3Error(403, "QuotaExceeded"), "QuotaExceeded"))
                .isNull();
    }

    private static S3Exception answer(
            int status, String code, String message, String bodyElements, SdkHttpResponse response) {
        String body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code + "</Code><Message>" + message
                + "</Message>" + bodyElements + "</Error>";
        return (S3Exception) S3Exception.builder()
                .statusCode(status)
                .message(message)
                .awsErrorDetails(AwsErrorDetails.builder()
                        .errorCode(code)
                        .errorMessage(message)
                        .sdkHttpResponse(response)
                        .rawResponse(SdkBytes.fromString(body, StandardCharsets.UTF_8))
                        .build())
                .build();
    }
}
