package dev.flinks3.transfer.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Every hint the plugin's S3 errors carry is quoted in docs/troubleshooting.md, so a user who searches the page
 * for the text of an error finds its entry. The hints are collected from the code that makes them, not from a
 * list: every {@code *_HINT} string constant of this package's classes, and every hint {@link S3Errors#translate}
 * gives for a grid of S3 answers (each operation the plugin sends, against the error codes and statuses S3 and
 * S3-compatible stores answer with, the region header, the clock-skew body and the messages stores use), and for
 * failures without an answer (unknown host, TLS handshake, the CRT client's own errors). Parts of a hint that
 * depend on the request (bucket, key, region, the clock offset) are found by translating each answer twice with
 * different values; the page must hold each hint's opening, up to the first ". ", "; " or ": " or the first part
 * that varies.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class S3ErrorHintsPageTest {

    /** The S3 operations the plugin sends, as its errors name them. */
    private static final List<String> OPERATIONS = List.of(
            "GetObject",
            "HeadObject",
            "PutObject",
            S3Errors.conditionalWrite("PutObject"),
            "CreateMultipartUpload",
            "UploadPart",
            "CompleteMultipartUpload",
            S3Errors.conditionalWrite("CompleteMultipartUpload"),
            "AbortMultipartUpload",
            "ListObjectsV2",
            "ListMultipartUploads",
            "ListParts",
            "DeleteObject",
            "DeleteObjects",
            "CopyObject",
            "UploadPartCopy");

    /** Error codes of S3's error responses (a list that takes null) and of stores that answer otherwise; null for an answer without one. */
    private static final List<String> CODES = Arrays.asList(
            null,
            "AccessDenied",
            "AuthorizationHeaderMalformed",
            "BadDigest",
            "ConditionalRequestConflict",
            "ExpiredToken",
            "InvalidAccessKeyId",
            "InvalidArgument",
            "InvalidObjectState",
            "InvalidPart",
            "InvalidRequest",
            "InvalidToken",
            "KMS.DisabledException",
            "MissingContentLength",
            "NotImplemented",
            "PermanentRedirect",
            "RequestTimeTooSkewed",
            "SignatureDoesNotMatch",
            "XAmzContentSHA256Mismatch");

    private static final List<Integer> STATUSES = List.of(301, 400, 403, 409, 411, 412, 501);

    /** Messages naming what a store refused, as stores word them. */
    private static final List<String> MESSAGES = List.of(
            "",
            "Unsupported header 'x-amz-checksum-crc32c' received for this API call.",
            "aws-chunked encoding is not supported with the specified x-amz-content-sha256 value",
            "Transfer-Encoding header is not supported",
            "Server side encryption specified but KMS is not configured",
            "All non-trailing parts must have the same length.",
            "The authorization header is malformed; the region 'us-east-1' is wrong; expecting '"
                    + Request.REGION_PLACEHOLDER + "'");

    @Test
    void everyHintConstantIsOnThePage() throws Exception {
        Map<String, String> missing = new TreeMap<>();
        for (Class<?> type : classesOfThisPackage()) {
            for (Field field : type.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (Modifier.isStatic(modifiers)
                        && Modifier.isFinal(modifiers)
                        && field.getType() == String.class
                        && field.getName().endsWith("_HINT")) {
                    field.setAccessible(true);
                    String opening = opening((String) field.get(null));
                    if (!page().contains(opening)) {
                        missing.put(type.getSimpleName() + "." + field.getName(), opening);
                    }
                }
            }
        }
        assertThat(missing).as("hints not quoted in docs/troubleshooting.md").isEmpty();
    }

    @Test
    void everyHintOfATranslatedAnswerIsOnThePage() {
        Map<String, String> missing = new TreeMap<>();
        List<String> found = new ArrayList<>();
        for (String operation : OPERATIONS) {
            for (int status : STATUSES) {
                for (String code : CODES) {
                    // Stores name what they refused in the message of a 400, 411 or 501; other answers are read by
                    // their status and code.
                    List<String> messages = status == 400 || status == 411 || status == 501 ? MESSAGES : List.of("");
                    for (String message : messages) {
                        String where = operation + " " + status + " " + code + " '" + message + "'";
                        String hint = stableHint(request -> request.answer(operation, status, code, message));
                        if (hint != null) {
                            found.add(hint);
                            if (!page().contains(hint)) {
                                missing.putIfAbsent(hint, where);
                            }
                        }
                    }
                }
            }
        }
        for (Map.Entry<String, Function<Request, IOException>> failure :
                failuresWithoutAnswer().entrySet()) {
            String hint = stableHint(failure.getValue());
            if (hint != null) {
                found.add(hint);
                if (!page().contains(hint)) {
                    missing.putIfAbsent(hint, failure.getKey());
                }
            }
        }
        assertThat(found).as("hints the grid produced").hasSizeGreaterThan(10);
        assertThat(missing)
                .as("hints (opening) not quoted in docs/troubleshooting.md, with an answer that gives each")
                .isEmpty();
    }

    private static Map<String, Function<Request, IOException>> failuresWithoutAnswer() {
        Map<String, Function<Request, IOException>> failures = new TreeMap<>();
        failures.put(
                "unknown host",
                request -> S3Errors.translate(
                        "GetObject",
                        request.location,
                        SdkClientException.create(
                                "Unable to execute HTTP request",
                                new UnknownHostException(request.bucket + ".minio"))));
        failures.put(
                "TLS handshake",
                request -> S3Errors.translate(
                        "GetObject",
                        request.location,
                        SdkClientException.create(
                                "Unable to execute HTTP request",
                                new SSLHandshakeException("PKIX path building failed"))));
        failures.put(
                "CRT out of retries",
                request -> S3Errors.translate(
                        "PutObject",
                        request.location,
                        SdkClientException.create("Failed to send the request: Response code indicates internal"
                                + " server error (aws-c-s3: AWS_ERROR_S3_INTERNAL_ERROR)")));
        return failures;
    }

    /**
     * The opening of the hint {@code translation} gives, the same for two requests that differ in bucket, key,
     * region and clock offset; null if it gives none.
     */
    private static String stableHint(Function<Request, IOException> translation) {
        String first = hint(translation.apply(Request.FIRST));
        if (first == null) {
            return null;
        }
        String second = hint(translation.apply(Request.SECOND));
        assertThat(second).as("the hint for another request of the same kind").isNotNull();
        int same = 0;
        while (same < Math.min(first.length(), second.length()) && first.charAt(same) == second.charAt(same)) {
            same++;
        }
        String common = first.substring(0, same);
        if (same < first.length()) {
            // Up to the last whole word before the part that varies.
            int space = common.lastIndexOf(' ');
            common = space < 0 ? common : common.substring(0, space);
        }
        return opening(common);
    }

    /** The hint an error carries (the text after its answer), or null. */
    private static String hint(IOException error) {
        if (!(error instanceof S3RequestException)) {
            return null;
        }
        String message = error.getMessage();
        Throwable cause = error.getCause();
        String causeText = cause == null || cause.getMessage() == null
                ? ""
                : " (" + cause.getMessage().split("\n", 2)[0] + ")";
        int end = message.indexOf(causeText) + causeText.length();
        if (causeText.isEmpty()) {
            int colon = message.indexOf(": ");
            end = message.indexOf(' ', message.indexOf(' ', colon + 2) + 1);
            end = end < 0 ? message.length() : end;
        }
        String rest = message.substring(end);
        if (!rest.startsWith(". ")) {
            return null;
        }
        return rest.substring(2);
    }

    /** A hint's text up to its first ". ", "; " or ": ", as the page quotes at least. */
    static String opening(String hint) {
        int end = hint.length();
        for (String boundary : List.of(". ", "; ", ": ")) {
            int at = hint.indexOf(boundary);
            if (at > 0 && at < end) {
                end = at;
            }
        }
        return normalized(hint.substring(0, end));
    }

    private static String normalized(String text) {
        return text.replace("`", "")
                .replaceAll("(?m)^\\s*>\\s?", "")
                .replaceAll("\\s+", " ")
                .trim();
    }

    private static String page;

    /** docs/troubleshooting.md without code marks, quote marks and line breaks. */
    private static synchronized String page() {
        if (page == null) {
            try {
                page = normalized(Files.readString(repositoryRoot().resolve("docs/troubleshooting.md")));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return page;
    }

    private static Path repositoryRoot() {
        for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("docs/troubleshooting.md"))
                    && Files.isDirectory(dir.resolve("transfer"))) {
                return dir;
            }
        }
        throw new IllegalStateException(
                "no repository root above " + Paths.get("").toAbsolutePath());
    }

    /** The classes of this package in the module's compiled classes, nested ones included. */
    private static List<Class<?>> classesOfThisPackage() throws IOException, URISyntaxException {
        Path folder =
                Paths.get(S3Errors.class.getResource("S3Errors.class").toURI()).getParent();
        String packageName = S3Errors.class.getPackageName();
        try (Stream<Path> files = Files.list(folder)) {
            return files
                    .map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".class"))
                    .map(name -> packageName + "." + name.substring(0, name.length() - ".class".length()))
                    .collect(Collectors.toCollection(TreeSet::new))
                    .stream()
                    .map(S3ErrorHintsPageTest::load)
                    .collect(Collectors.toList());
        }
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, S3ErrorHintsPageTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What varies between two requests of the same kind: where, the bucket's region, the clocks. */
    private static final class Request {
        static final String REGION_PLACEHOLDER = "{region}";
        static final Request FIRST = new Request("flink-bucket", "checkpoints/chk-1/state", "eu-central-1", 1200);
        static final Request SECOND = new Request("other-bucket", "savepoints/sp-2/data", "ap-south-1", 2460);

        final String bucket;
        final S3Location location;
        final String region;
        final long skewSeconds;

        Request(String bucket, String key, String region, long skewSeconds) {
            this.bucket = bucket;
            this.location = S3Location.of("s3", bucket, key);
            this.region = region;
            this.skewSeconds = skewSeconds;
        }

        /** {@link S3Errors#translate} of an S3 error answer to {@code operation} for this request. */
        IOException answer(String operation, int status, String code, String message) {
            String text = message.replace(REGION_PLACEHOLDER, region);
            Instant now = Instant.parse("2026-12-07T12:00:00Z");
            String body = "<Error>" + (code == null ? "" : "<Code>" + code + "</Code>") + "<Message>" + text
                    + "</Message><Region>" + region + "</Region><RequestTime>"
                    + DateTimeFormatter.ISO_INSTANT.format(now) + "</RequestTime><ServerTime>"
                    + DateTimeFormatter.ISO_INSTANT.format(now.plusSeconds(skewSeconds)) + "</ServerTime></Error>";
            SdkHttpResponse response = SdkHttpResponse.builder()
                    .statusCode(status)
                    .putHeader("x-amz-bucket-region", region)
                    .build();
            S3Exception exception = (S3Exception) S3Exception.builder()
                    .statusCode(status)
                    .message(text.isEmpty() ? null : text)
                    .awsErrorDetails(AwsErrorDetails.builder()
                            .errorCode(code)
                            .errorMessage(text.isEmpty() ? null : text)
                            .serviceName("S3")
                            .sdkHttpResponse(response)
                            .rawResponse(SdkBytes.fromString(body, StandardCharsets.UTF_8))
                            .build())
                    .build();
            return S3Errors.translate(operation, location, exception);
        }
    }
}
