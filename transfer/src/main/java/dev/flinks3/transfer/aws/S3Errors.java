package dev.flinks3.transfer.aws;

import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.options.S3Options;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkInterruptedException;

/**
 * Turns what the SDK throws into the {@link IOException}s of the {@link ObjectClient} contract, at
 * one place on the boundary. Whatever reaches here is final: the SDK's retry strategy has already
 * retried throttling, 5xx and network errors.
 *
 * <table>
 *   <caption>Translation</caption>
 *   <tr><th>S3 answer</th><th>exception</th></tr>
 *   <tr><td>404 (NoSuchKey, NoSuchBucket, NoSuchUpload, HEAD without body)</td>
 *       <td>{@link FileNotFoundException} naming the location</td></tr>
 *   <tr><td>416 InvalidRange</td><td>{@link EOFException}</td></tr>
 *   <tr><td>412 PreconditionFailed (we only send preconditions on conditional writes)</td>
 *       <td>{@link FileAlreadyExistsException} naming the location</td></tr>
 *   <tr><td>any other error answer, or no answer</td>
 *       <td>{@link S3RequestException} with operation, location, status and error code</td></tr>
 * </table>
 *
 * <p>When a server rejects a flexible checksum, aws-chunked encoding or a conditional write, the
 * message names the configuration key ({@link S3Options#CHECKSUM_VALIDATION_ENABLED}, {@link
 * S3Options#CHUNKED_ENCODING_ENABLED}, {@link S3Options#CONDITIONAL_WRITES_ENABLED}); when it rejects
 * server-side encryption, it names {@link S3Options#SSE_TYPE}; an expired or invalid session token
 * ({@code ExpiredToken}, {@code InvalidToken}) names the delegation token renewal and {@link
 * S3Options#SESSION_TOKEN}; a store that completes only uploads of parts of one size (R2's {@code InvalidPart})
 * names {@link S3Options#UNIFORM_PARTS}. An answer refusing who signed the request, where or when (access
 * denied, with the IAM action of the operation; a HEAD refused for want of {@code s3:ListBucket}; a
 * signature mismatch; a clock skew, with the offset; a bucket in another region, with that region) says
 * what to change ({@link RefusedRequestHints}). An answer without an S3 error code (a 400 with an empty
 * body, as Ceph RGW sends) says so, and names the switches that usually make such a server take the
 * request.
 */
public final class S3Errors {

    public static final String CHECKSUM_HINT = "If this S3-compatible server does not support flexible checksums"
            + " (x-amz-checksum-*), set " + S3Options.CHECKSUM_VALIDATION_ENABLED.key() + ": false";
    static final String CHUNKED_HINT = "If this S3-compatible server does not support aws-chunked uploads"
            + " (Content-Encoding: aws-chunked with a trailing checksum), set "
            + S3Options.CHUNKED_ENCODING_ENABLED.key() + ": false";
    static final String ENCRYPTION_HINT = "If this S3-compatible server does not support server-side encryption, set "
            + S3Options.SSE_TYPE.key() + ": none";
    /** The two switches that make most S3-compatible servers take an upload they reject. */
    private static final String FEATURE_SWITCHES = "aws-chunked uploads (set "
            + S3Options.CHUNKED_ENCODING_ENABLED.key() + ": false) or flexible checksums (set "
            + S3Options.CHECKSUM_VALIDATION_ENABLED.key() + ": false)";

    private static final String CONDITIONAL_SWITCH =
            ", or conditional writes (If-None-Match: *, set " + S3Options.CONDITIONAL_WRITES_ENABLED.key() + ": false)";
    static final String UNNAMED_FEATURE_HINT = "The server does not implement a header of this request;"
            + " S3-compatible servers often lack " + FEATURE_SWITCHES;
    static final String UNNAMED_FEATURE_HINT_CONDITIONAL = UNNAMED_FEATURE_HINT + CONDITIONAL_SWITCH;
    static final String NO_ERROR_CODE = "The answer carries no S3 error code";
    static final String NO_ERROR_CODE_HINT = NO_ERROR_CODE + ", as S3-compatible servers answer a request in a form"
            + " they do not take; they often lack " + FEATURE_SWITCHES;
    static final String NO_ERROR_CODE_HINT_CONDITIONAL = NO_ERROR_CODE_HINT + CONDITIONAL_SWITCH;
    static final String HEAD_WITHOUT_CODE_HINT = "The answer to a HEAD has no body, so it carries no S3 error code";
    static final String PAYLOAD_HASH_HINT = "The server found that the body does not match its hash, also when it"
            + " was sent again; servers that do not take aws-chunked uploads with a trailing checksum answer so"
            + " (Ceph RGW): set " + S3Options.CHECKSUM_VALIDATION_ENABLED.key() + ": false, or "
            + S3Options.CHUNKED_ENCODING_ENABLED.key() + ": false";
    static final String SESSION_TOKEN_HINT = "The session token was rejected as expired or invalid: with Flink's"
            + " delegation tokens (security.delegation.token.provider.s3.enabled), the JobManager did not renew them"
            + " in time (see its log of the S3 delegation token provider); the temporary static credentials of "
            + S3Options.SESSION_TOKEN.key() + " (with " + S3Options.ACCESS_KEY.key() + " and "
            + S3Options.SECRET_KEY.key() + ") must be replaced by fresh ones, or configured as a credentials"
            + " provider that renews them (" + S3Options.CREDENTIALS_PROVIDER.key() + ", "
            + S3Options.ASSUME_ROLE_ARN.key() + ")";
    static final String CONFLICT_HINT =
            "Another operation on the key raced this conditional write on every" + " attempt";
    static final String MULTIPART_CONFLICT_HINT = "Another operation on the key raced this conditional write;"
            + " S3 asks for the multipart upload to be started again with every part, so the file must be"
            + " written again";

    private static final String IF_NONE_MATCH_SUFFIX = " (If-None-Match: *)";

    private S3Errors() {}

    /**
     * The name of a write sent with {@code If-None-Match: *}: its 412 answer means that an object
     * exists, and messages show the header.
     */
    public static String conditionalWrite(String operation) {
        return operation + IF_NONE_MATCH_SUFFIX;
    }

    /**
     * The {@link IOException} for a failure of one S3 operation.
     *
     * @param operation the S3 operation, e.g. {@code GetObject}
     * @param location what the request was for, usually an {@link S3Location}; its {@code toString()}
     *     appears in the message
     * @param failure what the SDK threw or completed a future with; {@link CompletionException} and
     *     {@link ExecutionException} wrappers are removed
     * @throws Error if the failure is an {@link Error}, which is rethrown as is
     */
    public static IOException translate(String operation, Object location, Throwable failure) {
        Throwable cause = Futures.unwrap(failure);
        if (cause instanceof Error) {
            throw (Error) cause;
        }
        if (cause instanceof IOException || cause instanceof CancellationException) {
            return Futures.failed(operation, location, cause);
        }
        if (cause instanceof AwsServiceException) {
            return fromServiceAnswer(operation, location, (AwsServiceException) cause);
        }
        if (refusedOnInterruptedThread(cause)) {
            InterruptedIOException interrupted = new InterruptedIOException(
                    operation + " of " + location + " not sent: the calling thread was interrupted");
            interrupted.initCause(cause);
            return interrupted;
        }
        String hint = tlsHint(cause);
        if (hint == null) {
            hint = unknownHostHint(cause);
        }
        return new S3RequestException(
                operation, String.valueOf(location), 0, null, hint != null ? hint : crtErrorAnswerHint(cause), cause);
    }

    /**
     * Whether the SDK refused a request because the thread that sent it was interrupted ({@code
     * SdkInterruptedException} among the causes): Flink cancels a task by interrupting its threads.
     */
    private static boolean refusedOnInterruptedThread(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SdkInterruptedException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Said when the CRT-based S3 client gave up on the server's error answers: aws-c-s3 retries a 500 or a
     * 503 itself and, once out of retries, reports only its own error ("Response code indicates internal
     * server error", "... throttling"), not the answer's HTTP status or S3 error code.
     */
    static final String CRT_ERROR_ANSWER_HINT = "The server answered with an error on every attempt; the"
            + " CRT-based S3 client (" + S3Options.CLIENT.key() + ": crt) passes on neither the HTTP status nor the S3"
            + " error code of such answers, " + S3Options.CLIENT.key() + ": sdk reports both";

    private static final String CRT_STATUS_ERROR = "Response code indicates";

    private static String crtErrorAnswerHint(Throwable failure) {
        String message = failure.getMessage();
        return message != null && message.contains(CRT_STATUS_ERROR) ? CRT_ERROR_ANSWER_HINT : null;
    }

    /**
     * Said when the server's host name does not resolve: with virtual-host addressing the bucket is part
     * of the host name ({@code bucket.minio:9000}), which custom endpoints rarely resolve.
     */
    static final String UNKNOWN_HOST_HINT = "The host name does not resolve. With a custom endpoint (MinIO, Ceph,"
            + " an appliance) set '" + S3Options.PATH_STYLE_ACCESS.key()
            + ": true': without it the bucket is put in front of the"
            + " endpoint's host name (virtual-host addressing, bucket.host), which such servers rarely resolve";

    private static String unknownHostHint(Throwable failure) {
        return isUnknownHost(failure) ? UNKNOWN_HOST_HINT : null;
    }

    /**
     * True if {@code failure} or one of its causes is an {@link java.net.UnknownHostException}, or the
     * CRT HTTP client's failed DNS resolution.
     */
    public static boolean isUnknownHost(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.UnknownHostException) {
                return true;
            }
            // The CRT HTTP client's words for it (aws-c-io's AWS_IO_DNS_INVALID_NAME and kin).
            String message = t.getMessage();
            if (message != null && message.toLowerCase(Locale.ROOT).contains("dns resolution")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Said for a 403 of a multipart upload request: with SSE-KMS, CreateMultipartUpload, UploadPart and
     * CompleteMultipartUpload need {@code kms:Decrypt} besides {@code kms:GenerateDataKey} (S3 user guide,
     * "Uploading and copying objects using multipart upload", permissions), so a key policy without it
     * lets small files (one PutObject) through and fails the large ones.
     */
    static final String KMS_MULTIPART_HINT =
            "If the bucket or " + S3Options.SSE_TYPE.key() + " uses SSE-KMS: multipart uploads need"
                    + " kms:GenerateDataKey and kms:Decrypt on the KMS key (a single PutObject needs only"
                    + " kms:GenerateDataKey, so small files work while large ones fail); grant both to the role or user"
                    + " in the key policy";

    /**
     * Said for a 403 InvalidObjectState of a read: the object is archived (S3 user guide, "Restoring an
     * archived object").
     */
    static final String ARCHIVED_HINT = "The object is in an archive storage class (GLACIER or DEEP_ARCHIVE, or an"
            + " archive tier of INTELLIGENT_TIERING) and must be restored with RestoreObject before it can be read;"
            + " " + S3Options.STORAGE_CLASS.key() + " refuses those classes for what the plugin writes";

    /** What to configure when the TLS handshake failed, typically on a certificate no trusted CA signed. */
    static final String TLS_HINT = "If the server's certificate is signed by a private CA, give that CA's PEM file"
            + " in '" + S3Options.SSL_CA_FILE.key()
            + "' or a trust store holding it in the JVM's -Djavax.net.ssl.trustStore";

    private static String tlsHint(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof javax.net.ssl.SSLHandshakeException) {
                return TLS_HINT;
            }
        }
        return null;
    }

    /**
     * A future that completes like {@code future}, but exceptionally with {@link #translate}'s
     * exception. Cancelling the returned future cancels {@code future}, which aborts the request.
     */
    public static <T> CompletableFuture<T> translating(CompletableFuture<T> future, String operation, Object location) {
        return translating(future, response -> response, operation, location);
    }

    /**
     * A future of {@code future}'s value passed through {@code mapping}, failing with {@link
     * #translate}'s exception. Cancelling the returned future cancels {@code future}, which aborts
     * the request.
     */
    public static <S, T> CompletableFuture<T> translating(
            CompletableFuture<S> future, Function<? super S, ? extends T> mapping, String operation, Object location) {
        CompletableFuture<T> result = new CompletableFuture<>();
        future.whenComplete((value, failure) -> {
            if (failure != null) {
                result.completeExceptionally(translateOrError(operation, location, failure));
                return;
            }
            try {
                result.complete(mapping.apply(value));
            } catch (RuntimeException e) {
                result.completeExceptionally(translate(operation, location, e));
            }
        });
        result.whenComplete((value, failure) -> {
            if (result.isCancelled()) {
                future.cancel(true);
            }
        });
        return result;
    }

    /**
     * Waits for {@code future} and returns its value.
     *
     * @throws IOException as {@link #translate} maps the failure; {@link InterruptedIOException}
     *     (with the interrupt flag restored and the request cancelled) if the thread is interrupted
     */
    public static <T> T await(CompletableFuture<T> future, String operation, Object location) throws IOException {
        return Futures.await(future, operation, location, cause -> translate(operation, location, cause));
    }

    /**
     * Sends a short request and waits for its answer, letting it finish for up to {@code grace} after an
     * interrupt; see {@link Futures#awaitDespiteInterrupt}.
     *
     * @throws IOException as {@link #translate} maps the failure; {@link InterruptedIOException} (the
     *     request cancelled) if no answer came within {@code grace} of an interrupt; the interrupt flag
     *     is set again either way
     */
    public static <T> T awaitDespiteInterrupt(
            Supplier<CompletableFuture<T>> send, Duration grace, String operation, Object location) throws IOException {
        return Futures.awaitDespiteInterrupt(
                send, grace, operation, location, cause -> translate(operation, location, cause));
    }

    /** The HTTP status of an S3 error answer inside {@code failure}, or 0 if there is none. */
    static int statusCode(Throwable failure) {
        Throwable cause = Futures.unwrap(failure);
        return cause instanceof AwsServiceException ? ((AwsServiceException) cause).statusCode() : 0;
    }

    private static Throwable translateOrError(String operation, Object location, Throwable failure) {
        Throwable cause = Futures.unwrap(failure);
        return cause instanceof Error ? cause : translate(operation, location, cause);
    }

    private static IOException fromServiceAnswer(String operation, Object location, AwsServiceException e) {
        int status = e.statusCode();
        String code = errorCode(e);
        String answer = "HTTP " + status + (code == null ? "" : " " + code);
        switch (status) {
            case 404:
                return withCause(
                        new FileNotFoundException(
                                notFoundMessage(location, code) + " (" + operation + ": " + answer + ")"),
                        e);
            case 416:
                return withCause(
                        new EOFException(operation + " of " + location
                                + ": the requested range starts at or past the end of the object (" + answer + ")"),
                        e);
            case 412:
                if (operation.endsWith(IF_NONE_MATCH_SUFFIX)) {
                    return withCause(
                            new FileAlreadyExistsException(
                                    String.valueOf(location),
                                    null,
                                    "an object already exists at the key (" + operation + " answered " + answer + ")"),
                            e);
                }
                return new S3RequestException(
                        operation, String.valueOf(location), status, code, "The object changed while it was read", e);
            default:
                String hint = hint(operation, location, e, code);
                return new S3RequestException(
                        operation,
                        String.valueOf(location),
                        status,
                        code,
                        hint == null && code == null ? NO_ERROR_CODE : hint,
                        e);
        }
    }

    private static String notFoundMessage(Object location, String code) {
        if ("NoSuchBucket".equals(code)) {
            return "Bucket of " + location + " does not exist";
        }
        if ("NoSuchUpload".equals(code)) {
            return "No such multipart upload: " + location;
        }
        return "No such object: " + location;
    }

    /**
     * What the user can switch off when a server rejects a feature of the request: the message names
     * the header where the server says which one; S3's own NotImplemented message does not.
     */
    private static String hint(String operation, Object location, AwsServiceException e, String code) {
        int status = e.statusCode();
        boolean conditional = operation.endsWith(IF_NONE_MATCH_SUFFIX);
        if ("ExpiredToken".equals(code) || "InvalidToken".equals(code)) {
            return SESSION_TOKEN_HINT;
        }
        if ("XAmzContentSHA256Mismatch".equals(code)) {
            return PAYLOAD_HASH_HINT;
        }
        if (status == 409 && "ConditionalRequestConflict".equals(code)) {
            return operation.startsWith("CompleteMultipartUpload") ? MULTIPART_CONFLICT_HINT : CONFLICT_HINT;
        }
        if (status == 403 && "InvalidObjectState".equals(code)) {
            return ARCHIVED_HINT;
        }
        if (status == 400 && "InvalidPart".equals(code) && isUniformPartsRefusal(e)) {
            return UNIFORM_PARTS_HINT;
        }
        String refused = RefusedRequestHints.hint(operation, location, e, code);
        if (status == 403
                && (operation.startsWith("CreateMultipartUpload")
                        || operation.startsWith("UploadPart")
                        || operation.startsWith("CompleteMultipartUpload"))
                && (code == null || "AccessDenied".equals(code) || code.startsWith("KMS"))) {
            return refused == null ? KMS_MULTIPART_HINT : refused + ". " + KMS_MULTIPART_HINT;
        }
        if (refused != null) {
            return code == null && operation.startsWith("HeadObject")
                    ? HEAD_WITHOUT_CODE_HINT + ". " + refused
                    : refused;
        }
        if (code == null && status >= 400 && status < 500 && operation.startsWith("HeadObject")) {
            return HEAD_WITHOUT_CODE_HINT;
        }
        if ((status != 400 && status != 411 && status != 501) || "BadDigest".equals(code)) {
            // BadDigest means the checksum worked: the body arrived corrupted.
            return null;
        }
        String text = (code + " " + e.getMessage()).toLowerCase(Locale.ROOT);
        if (text.contains("chunked")
                || text.contains("transfer-encoding")
                || text.contains("decoded-content-length")
                || text.contains("streaming-")
                || text.contains("trailer")) {
            return CHUNKED_HINT;
        }
        if (text.contains("checksum") || text.contains("crc32")) {
            return CHECKSUM_HINT;
        }
        if (text.contains("encryption")) {
            return ENCRYPTION_HINT;
        }
        if (code == null && status == 400) {
            return conditional ? NO_ERROR_CODE_HINT_CONDITIONAL : NO_ERROR_CODE_HINT;
        }
        if (status != 501 && !"NotImplemented".equals(code)) {
            return null;
        }
        if (conditional) {
            return UNNAMED_FEATURE_HINT_CONDITIONAL;
        }
        return isUpload(operation) ? UNNAMED_FEATURE_HINT : null;
    }

    /**
     * Said when a store refuses to complete an upload whose parts but the last differ in size: Cloudflare R2
     * answers {@code InvalidPart} "All non-trailing parts must have the same length", also behind a custom
     * domain or a proxy, where the endpoint does not show that the store is R2.
     */
    static final String UNIFORM_PARTS_HINT = "This store completes only uploads whose parts, but the last, all have"
            + " the same size (Cloudflare R2 answers so, also behind a custom domain or a proxy): set"
            + " " + S3Options.UNIFORM_PARTS.key() + ": true";

    private static boolean isUniformPartsRefusal(AwsServiceException e) {
        String message = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        return message.contains("same length") || message.contains("same size") || message.contains("non-trailing");
    }

    private static boolean isUpload(String operation) {
        return operation.startsWith("PutObject")
                || operation.startsWith("UploadPart")
                || operation.startsWith("CreateMultipartUpload")
                || operation.startsWith("CompleteMultipartUpload");
    }

    private static String errorCode(AwsServiceException e) {
        AwsErrorDetails details = e.awsErrorDetails();
        return details == null ? null : details.errorCode();
    }

    private static <E extends IOException> E withCause(E exception, Throwable cause) {
        exception.initCause(cause);
        return exception;
    }
}
