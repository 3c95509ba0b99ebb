package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.aws.S3Errors;
import dev.flinks3.transfer.sdk.FlexibleChecksums.BodyChecksums;
import dev.flinks3.transfer.sdk.FlexibleChecksums.Mode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * How {@link FlexibleChecksums} picks the checksum uploads carry from the server's answers. The "server"
 * here is a function from the checksums sent to an answer; what real servers do is shown by the
 * integration tests on S3Proxy (echoes CRC32C) and Ceph RGW (ignores it, checks Content-MD5).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class FlexibleChecksumsTest {

    private static final ByteBuffer BODY = ByteBuffer.wrap("123456789".getBytes(StandardCharsets.US_ASCII));
    /** CRC32C("123456789") is the check value 0xE3069283 of the Castagnoli CRC. */
    private static final String CRC32C_OF_BODY = "4waSgw==";

    private static final String MD5_OF_BODY = "JfnnlDI7RTiF9RgfG2JNCw==";

    private final List<BodyChecksums> sent = new ArrayList<>();

    @Test
    void bodyChecksumsAreTheBase64OfTheBigEndianCrc32cAndOfTheMd5() {
        assertThat(BodyChecksums.crc32c(BODY)).isEqualTo(CRC32C_OF_BODY);
        assertThat(BodyChecksums.contentMd5(BODY)).isEqualTo(MD5_OF_BODY);
        assertThat(BODY.position()).isZero();
    }

    @Test
    void firstUploadsCarryBothAndAServerThatEchoesTheCrc32cGetsOnlyThatFromThenOn() {
        FlexibleChecksums checksums = new FlexibleChecksums(true);

        upload(checksums, answerEchoing(true));
        upload(checksums, answerEchoing(true));

        assertThat(sent.get(0).crc32c()).isEqualTo(CRC32C_OF_BODY);
        assertThat(sent.get(0).contentMd5()).isEqualTo(MD5_OF_BODY);
        assertThat(checksums.mode()).isEqualTo(Mode.CRC32C);
        assertThat(sent.get(1).crc32c()).isEqualTo(CRC32C_OF_BODY);
        assertThat(sent.get(1).contentMd5()).isNull();
    }

    @Test
    void aServerThatIgnoresTheCrc32cGetsOnlyContentMd5FromThenOn() {
        FlexibleChecksums checksums = new FlexibleChecksums(true);

        upload(checksums, answerEchoing(false));
        upload(checksums, answerEchoing(false));

        assertThat(checksums.mode()).isEqualTo(Mode.CONTENT_MD5);
        assertThat(sent.get(1).crc32c()).isNull();
        assertThat(sent.get(1).contentMd5()).isEqualTo(MD5_OF_BODY);
    }

    @Test
    void anUploadRejectedForItsCrc32cHeaderIsSentAgainWithContentMd5Only() {
        FlexibleChecksums checksums = new FlexibleChecksums(true);
        Function<BodyChecksums, CompletableFuture<String>> rejectingCrc32c = checksumsSent -> {
            sent.add(checksumsSent);
            return checksumsSent.crc32c() == null
                    ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.failedFuture(new S3RequestException(
                            "PutObject", "s3://b/k", 400, "InvalidArgument", S3Errors.CHECKSUM_HINT, null));
        };

        checksums
                .upload(BODY, rejectingCrc32c, answer -> answer, "PutObject", "s3://b/k")
                .join();

        assertThat(sent).hasSize(2);
        assertThat(sent.get(1).crc32c()).isNull();
        assertThat(sent.get(1).contentMd5()).isEqualTo(MD5_OF_BODY);
        assertThat(checksums.mode()).isEqualTo(Mode.CONTENT_MD5);
    }

    @Test
    void aCorruptedBodyIsNoRejectionOfTheHeaderAndFailsAsItCame() {
        FlexibleChecksums checksums = new FlexibleChecksums(true);
        S3RequestException badDigest = new S3RequestException("PutObject", "s3://b/k", 400, "BadDigest", null);

        Throwable failure = catchThrowable(() -> checksums
                .upload(
                        BODY,
                        checksumsSent -> {
                            sent.add(checksumsSent);
                            return CompletableFuture.<String>failedFuture(badDigest);
                        },
                        answer -> answer,
                        "PutObject",
                        "s3://b/k")
                .join());

        assertThat(failure).hasCause(badDigest);
        assertThat(sent).hasSize(1);
        assertThat(checksums.mode()).isEqualTo(Mode.PROBING);
    }

    @Test
    void aServerFoundToCheckCrc32cKeepsItWhenALaterAnswerLacksTheEcho() {
        FlexibleChecksums checksums = new FlexibleChecksums(true);

        upload(checksums, answerEchoing(true));
        upload(checksums, answerEchoing(false));

        assertThat(checksums.mode()).isEqualTo(Mode.CRC32C);
    }

    @Test
    void switchedOffOnlyContentMd5IsSentAndGetsAskForNoChecksum() {
        FlexibleChecksums checksums = new FlexibleChecksums(false);

        upload(checksums, answerEchoing(false));

        assertThat(checksums.enabled()).isFalse();
        assertThat(checksums.asksOnGets()).isFalse();
        assertThat(sent.get(0).crc32c()).isNull();
        assertThat(sent.get(0).contentMd5()).isEqualTo(MD5_OF_BODY);
    }

    @Test
    void aGetWhoseChecksumModeIsRejectedIsSentAgainWithoutAndLaterGetsAskForNone() throws Exception {
        FlexibleChecksums checksums = new FlexibleChecksums(true);
        List<Boolean> asked = new ArrayList<>();
        Function<Boolean, CompletableFuture<String>> b2 = refusingTheHeader("GetObject", "body", asked);

        assertThat(checksums
                        .declaring(FlexibleChecksums.Declared.CHECKSUM_MODE, b2, "GetObject", "s3://b/k")
                        .get())
                .isEqualTo("body");
        assertThat(checksums
                        .declaring(FlexibleChecksums.Declared.CHECKSUM_MODE, b2, "GetObject", "s3://b/k")
                        .get())
                .isEqualTo("body");

        assertThat(asked).containsExactly(true, false, false);
        assertThat(checksums.asksOnGets()).isFalse();
        assertThat(checksums.mode()).as("uploads are not concerned").isEqualTo(Mode.PROBING);
    }

    @Test
    void aRejectedAlgorithmOfACreateMultipartUploadIsSentAgainWithoutAndUploadsCarryContentMd5() throws Exception {
        FlexibleChecksums checksums = new FlexibleChecksums(true);
        List<Boolean> declared = new ArrayList<>();
        Function<Boolean, CompletableFuture<String>> b2 =
                refusingTheHeader("CreateMultipartUpload", "upload-id", declared);

        assertThat(checksums
                        .declaring(FlexibleChecksums.Declared.ALGORITHM, b2, "CreateMultipartUpload", "s3://b/k")
                        .get())
                .isEqualTo("upload-id");

        assertThat(declared).containsExactly(true, false);
        assertThat(checksums.mode()).isEqualTo(Mode.CONTENT_MD5);
    }

    @Test
    void anotherFailureOfADeclaringRequestIsNotSentAgain() {
        FlexibleChecksums checksums = new FlexibleChecksums(true);
        List<Boolean> asked = new ArrayList<>();
        S3RequestException denied = new S3RequestException("GetObject", "s3://b/k", 403, "AccessDenied", null);

        assertThatThrownBy(() -> checksums
                        .declaring(
                                FlexibleChecksums.Declared.CHECKSUM_MODE,
                                withHeader -> {
                                    asked.add(withHeader);
                                    return CompletableFuture.<String>failedFuture(denied);
                                },
                                "GetObject",
                                "s3://b/k")
                        .get())
                .hasCause(denied);
        assertThat(asked).containsExactly(true);
        assertThat(checksums.asksOnGets()).isTrue();
    }

    @Test
    void anUploadRefusedWithoutContentMd5IsSentAgainWithItAndTheCrc32cModeIsKept() {
        FlexibleChecksums checksums = new FlexibleChecksums(true);
        upload(checksums, answerEchoing(true));
        assertThat(checksums.mode()).isEqualTo(Mode.CRC32C);
        S3RequestException objectLock = (S3RequestException) S3Errors.translate(
                "PutObject",
                "s3://b/k",
                S3Exception.builder()
                        .statusCode(400)
                        .awsErrorDetails(AwsErrorDetails.builder()
                                .errorCode("InvalidRequest")
                                .errorMessage("Content-MD5 OR x-amz-checksum- HTTP header is required for Put Object"
                                        + " requests with Object Lock parameters")
                                .build())
                        .build());
        Function<BodyChecksums, CompletableFuture<String>> locked = checksumsSent -> {
            sent.add(checksumsSent);
            return checksumsSent.contentMd5() == null
                    ? CompletableFuture.failedFuture(objectLock)
                    : CompletableFuture.completedFuture(checksumsSent.crc32c());
        };

        upload(checksums, locked);
        upload(checksums, locked);

        assertThat(sent).hasSize(4);
        assertThat(sent.get(1).contentMd5()).as("the refused upload").isNull();
        assertThat(sent.subList(2, 4)).allSatisfy(s -> {
            assertThat(s.contentMd5()).isEqualTo(MD5_OF_BODY);
            assertThat(s.crc32c()).isEqualTo(CRC32C_OF_BODY);
        });
        assertThat(checksums.mode()).isEqualTo(Mode.CRC32C);
        assertThat(checksums.md5Demanded()).isTrue();
    }

    /**
     * A server as Backblaze B2: refuses the request while it carries the checksum header, answers
     * {@code answer} without it; records in {@code sent} whether each request carried the header.
     */
    private static Function<Boolean, CompletableFuture<String>> refusingTheHeader(
            String operation, String answer, List<Boolean> sent) {
        return withHeader -> {
            sent.add(withHeader);
            return withHeader
                    ? CompletableFuture.failedFuture(rejection(operation))
                    : CompletableFuture.completedFuture(answer);
        };
    }

    /** Backblaze B2's answer to a request with an x-amz-checksum-* header, as S3Errors translates it. */
    private static S3RequestException rejection(String operation) {
        return (S3RequestException) S3Errors.translate(
                operation,
                "s3://b/k",
                S3Exception.builder()
                        .statusCode(400)
                        .awsErrorDetails(AwsErrorDetails.builder()
                                .errorCode("InvalidArgument")
                                .errorMessage("Unsupported header 'x-amz-checksum-mode' received for this API call.")
                                .build())
                        .message("Unsupported header 'x-amz-checksum-mode' received for this API call.")
                        .build());
    }

    private Function<BodyChecksums, CompletableFuture<String>> answerEchoing(boolean echo) {
        return checksumsSent -> {
            sent.add(checksumsSent);
            return CompletableFuture.completedFuture(echo ? checksumsSent.crc32c() : null);
        };
    }

    private void upload(FlexibleChecksums checksums, Function<BodyChecksums, CompletableFuture<String>> server) {
        checksums
                .upload(BODY, server, echoed -> echoed, "PutObject", "s3://b/k")
                .join();
    }
}
