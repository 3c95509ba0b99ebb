package dev.flinks3.transfer.aws;

import static dev.flinks3.transfer.sdk.S3RetryStrategyTest.codelessError;
import static dev.flinks3.transfer.sdk.S3RetryStrategyTest.s3Error;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkInterruptedException;

class S3ErrorsTest {

    private static final S3Location LOCATION = S3Location.of("s3", "bucket", "dir/file");

    @Test
    void missingObjectIsFileNotFoundNamingTheLocation() {
        IOException e = S3Errors.translate("HeadObject", LOCATION, s3Error(404, "NoSuchKey"));
        assertThat(e)
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("s3://bucket/dir/file")
                .hasMessageContaining("HeadObject")
                .hasMessageContaining("404");
    }

    @Test
    void missingBucketAndUploadSayWhatIsMissing() {
        assertThat(S3Errors.translate("GetObject", LOCATION, s3Error(404, "NoSuchBucket")))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageStartingWith("Bucket of s3://bucket/dir/file does not exist");
        assertThat(S3Errors.translate("ListParts", LOCATION, s3Error(404, "NoSuchUpload")))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageStartingWith("No such multipart upload: s3://bucket/dir/file");
    }

    /** The SDK refuses a request sent from an interrupted thread; that is an interrupt, not a lost answer. */
    @Test
    void aRequestRefusedOnAnInterruptedThreadIsInterruptedIo() {
        SdkClientException refused = SdkClientException.builder()
                .cause(new SdkInterruptedException())
                .build();

        assertThat(S3Errors.translate("UploadPart", LOCATION, new CompletionException(refused)))
                .isInstanceOf(InterruptedIOException.class)
                .hasMessageContaining("UploadPart of s3://bucket/dir/file not sent")
                .hasCause(refused);
    }

    @Test
    void unsatisfiableRangeIsEndOfFile() {
        assertThat(S3Errors.translate("GetObject", LOCATION, s3Error(416, "InvalidRange")))
                .isInstanceOf(EOFException.class)
                .hasMessageContaining("s3://bucket/dir/file");
    }

    @Test
    void failedPreconditionIsFileAlreadyExists() {
        IOException e = S3Errors.translate(
                S3Errors.conditionalWrite("PutObject"), LOCATION, s3Error(412, "PreconditionFailed"));
        assertThat(e).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(((FileAlreadyExistsException) e).getFile()).isEqualTo("s3://bucket/dir/file");
        assertThat(e).hasMessageContaining("PreconditionFailed").hasMessageContaining("If-None-Match: *");
    }

    @Test
    void failedPreconditionOfAReadMeansTheObjectChanged() {
        IOException e = S3Errors.translate("GetObject", LOCATION, s3Error(412, "PreconditionFailed"));
        assertThat(e).isInstanceOf(S3RequestException.class).hasMessageContaining("changed while it was read");
    }

    @Test
    void otherAnswersCarryOperationStatusAndCode() {
        IOException e = S3Errors.translate("UploadPart", LOCATION, s3Error(403, "AccessDenied"));
        assertThat(e)
                .isInstanceOf(S3RequestException.class)
                .hasMessageStartingWith("UploadPart failed for s3://bucket/dir/file: HTTP 403 AccessDenied");
        assertThat(((S3RequestException) e).statusCode()).isEqualTo(403);
        assertThat(((S3RequestException) e).errorCode()).isEqualTo("AccessDenied");
    }

    @Test
    void noAnswerHasStatusZero() {
        IOException e = S3Errors.translate(
                "GetObject", LOCATION, SdkClientException.create("Unable to execute HTTP request: Connection refused"));
        assertThat(e).isInstanceOf(S3RequestException.class).hasMessageContaining("no response");
        assertThat(((S3RequestException) e).statusCode()).isZero();
    }

    @Test
    void wrappersAreRemoved() {
        Throwable wrapped = new CompletionException(new ExecutionException(s3Error(404, "NoSuchKey")));
        assertThat(S3Errors.translate("HeadObject", LOCATION, wrapped)).isInstanceOf(FileNotFoundException.class);
    }

    @Test
    void ioExceptionsPassThrough() {
        IOException original = new IOException("reset");
        assertThat(S3Errors.translate("GetObject", LOCATION, new CompletionException(original)))
                .isSameAs(original);
    }

    @Test
    void rejectedChecksumsPointToTheSwitch() {
        assertThat(S3Errors.translate(
                        "PutObject",
                        LOCATION,
                        s3Error(400, "InvalidArgument", "x-amz-checksum-crc32c header is not supported")))
                .hasMessageContaining(S3Errors.CHECKSUM_HINT);
        assertThat(S3Errors.translate(
                        "PutObject",
                        LOCATION,
                        s3Error(501, "NotImplemented", "Transfer-Encoding: aws-chunked is not implemented")))
                .hasMessageContaining(S3Errors.CHUNKED_HINT);
        assertThat(S3Errors.translate(
                        "UploadPart", LOCATION, s3Error(400, "InvalidRequest", "x-amz-trailer is not supported")))
                .hasMessageContaining("s3.chunked-encoding.enabled: false");
        assertThat(S3Errors.translate("PutObject", LOCATION, s3Error(400, "InvalidArgument", "Unsupported checksum")))
                .hasMessageContaining("s3.checksum-validation.enabled: false");
        String notImplemented = "A header you provided implies functionality that is not implemented";
        assertThat(S3Errors.translate("UploadPart", LOCATION, s3Error(501, "NotImplemented", notImplemented)))
                .hasMessageContaining(S3Errors.UNNAMED_FEATURE_HINT);
        assertThat(S3Errors.translate(
                        S3Errors.conditionalWrite("PutObject"),
                        LOCATION,
                        s3Error(501, "NotImplemented", notImplemented)))
                .hasMessageContaining("s3.conditional-writes.enabled: false")
                .hasMessageContaining("s3.chunked-encoding.enabled: false");
        assertThat(S3Errors.translate(
                        "CreateMultipartUpload",
                        LOCATION,
                        s3Error(501, "NotImplemented", "Server-side encryption is not supported.")))
                .hasMessageContaining("s3.sse.type: none")
                .hasMessageNotContaining("s3.chunked-encoding");
        assertThat(S3Errors.translate("GetObject", LOCATION, s3Error(501, "NotImplemented", notImplemented)))
                .hasMessageNotContaining("s3.");
        String mismatch = "The CRC32C you specified did not match the calculated checksum";
        assertThat(S3Errors.translate("PutObject", LOCATION, s3Error(400, "BadDigest", mismatch)))
                .hasMessageNotContaining(S3Errors.CHECKSUM_HINT);
    }

    @Test
    void anExpiredOrInvalidSessionTokenNamesItsKey() {
        for (String code : new String[] {"ExpiredToken", "InvalidToken"}) {
            assertThat(S3Errors.translate("GetObject", LOCATION, s3Error(400, code, "The provided token has expired.")))
                    .as(code)
                    .hasMessageStartingWith("GetObject failed for s3://bucket/dir/file: HTTP 400 " + code)
                    .hasMessageContaining(S3Errors.SESSION_TOKEN_HINT)
                    .hasMessageContaining("s3.session-token");
        }
    }

    @Test
    void anAnswerWithoutErrorCodeSaysSoAndNamesTheSwitchesThatUsuallyFixIt() {
        assertThat(S3Errors.translate("UploadPart", LOCATION, codelessError(400)))
                .hasMessageStartingWith("UploadPart failed for s3://bucket/dir/file: HTTP 400")
                .hasMessageContaining(S3Errors.NO_ERROR_CODE_HINT)
                .hasMessageContaining("s3.chunked-encoding.enabled: false")
                .hasMessageContaining("s3.checksum-validation.enabled: false")
                .hasMessageNotContaining("s3.conditional-writes");
        assertThat(S3Errors.translate(S3Errors.conditionalWrite("PutObject"), LOCATION, codelessError(400)))
                .hasMessageContaining(S3Errors.NO_ERROR_CODE_HINT_CONDITIONAL);
        assertThat(S3Errors.translate("GetObject", LOCATION, codelessError(500)))
                .hasMessageContaining("HTTP 500")
                .hasMessageContaining(S3Errors.NO_ERROR_CODE)
                .hasMessageNotContaining("s3.");
        assertThat(S3Errors.translate("HeadObject", LOCATION, codelessError(403)))
                .hasMessageContaining("HTTP 403")
                .hasMessageContaining(S3Errors.HEAD_WITHOUT_CODE_HINT);
        assertThat(S3Errors.translate("PutObject", LOCATION, s3Error(403, "AccessDenied")))
                .hasMessageNotContaining(S3Errors.NO_ERROR_CODE);
    }

    @Test
    void aPayloadHashMismatchAfterTheRetryNamesTheChecksumSwitch() {
        assertThat(S3Errors.translate(
                        "PutObject",
                        LOCATION,
                        s3Error(
                                400,
                                "XAmzContentSHA256Mismatch",
                                "The provided 'x-amz-content-sha256' header does not match what was computed.")))
                .hasMessageContaining("HTTP 400 XAmzContentSHA256Mismatch")
                .hasMessageContaining(S3Errors.PAYLOAD_HASH_HINT)
                .hasMessageContaining("s3.checksum-validation.enabled: false");
    }

    @Test
    void aConditionalRequestConflictThatOutlivedTheRetriesSaysWhatRaced() {
        assertThat(S3Errors.translate(
                        S3Errors.conditionalWrite("CompleteMultipartUpload"),
                        LOCATION,
                        s3Error(409, "ConditionalRequestConflict", "A conflicting operation occurred.")))
                .hasMessageContaining("HTTP 409 ConditionalRequestConflict")
                .hasMessageContaining(S3Errors.MULTIPART_CONFLICT_HINT);
        assertThat(S3Errors.translate(
                        S3Errors.conditionalWrite("PutObject"),
                        LOCATION,
                        s3Error(409, "ConditionalRequestConflict", "A conflicting operation occurred.")))
                .hasMessageContaining(S3Errors.CONFLICT_HINT)
                .hasMessageNotContaining("multipart");
    }

    @Test
    void translatingFutureFailsWithTheTranslatedException() {
        CompletableFuture<String> sdk = new CompletableFuture<>();
        CompletableFuture<Integer> mapped = S3Errors.translating(sdk, String::length, "HeadObject", LOCATION);
        sdk.completeExceptionally(new CompletionException(s3Error(404, "NoSuchKey")));
        assertThatThrownBy(mapped::join).hasCauseInstanceOf(FileNotFoundException.class);
    }

    @Test
    void translatingFutureMapsTheValue() {
        CompletableFuture<String> sdk = new CompletableFuture<>();
        CompletableFuture<Integer> mapped = S3Errors.translating(sdk, String::length, "HeadObject", LOCATION);
        sdk.complete("etag");
        assertThat(mapped.join()).isEqualTo(4);
    }

    @Test
    void cancellingTheTranslatingFutureCancelsTheRequest() {
        CompletableFuture<String> sdk = new CompletableFuture<>();
        S3Errors.translating(sdk, "GetObject", LOCATION).cancel(true);
        assertThat(sdk).isCancelled();
    }

    @Test
    void awaitThrowsTheTranslatedException() {
        CompletableFuture<String> failed = CompletableFuture.failedFuture(s3Error(416, "InvalidRange"));
        assertThatThrownBy(() -> S3Errors.await(failed, "GetObject", LOCATION)).isInstanceOf(EOFException.class);
    }

    @Test
    void interruptedAwaitCancelsTheRequestAndKeepsTheFlag() {
        CompletableFuture<String> pending = new CompletableFuture<>();
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> S3Errors.await(pending, "GetObject", LOCATION))
                    .isInstanceOf(InterruptedIOException.class);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
            assertThat(pending).isCancelled();
        } finally {
            Thread.interrupted();
        }
    }
}
