package dev.flinks3.transfer.aws;

import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.options.S3Options;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * What to change when S3 refused a request for who signed it, where or when: a denied permission (naming the
 * IAM action of the request that failed), a HEAD refused with 403 because the caller may not list the
 * bucket, a signature the server computed otherwise, a clock too far from the server's (with the offset), and
 * a bucket in another region than the one requests are signed for (the region the server names). Each hint
 * says what the server's answer means and the setting or permission to change.
 *
 * @see <a href="https://docs.aws.amazon.com/AmazonS3/latest/userguide/using-with-s3-policy-actions.html">Required
 *     permissions for Amazon S3 API operations</a>
 * @see <a href="https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html">S3 error responses</a>
 */
final class RefusedRequestHints {

    /**
     * The IAM action each S3 operation needs, by the operation's name (names may carry a suffix, e.g. {@code
     * PutObject (If-None-Match: *)}); longer names first, as "UploadPart" starts "UploadPartCopy".
     */
    private static final List<Map.Entry<String, String>> ACTIONS = List.of(
            Map.entry("UploadPartCopy", "s3:GetObject on the source and s3:PutObject on the target"),
            Map.entry("CopyObject", "s3:GetObject on the source and s3:PutObject on the target"),
            Map.entry("HeadObject", "s3:GetObject"),
            Map.entry("GetObject", "s3:GetObject"),
            Map.entry("PutObject", "s3:PutObject"),
            Map.entry("CreateMultipartUpload", "s3:PutObject"),
            Map.entry("UploadPart", "s3:PutObject"),
            Map.entry("CompleteMultipartUpload", "s3:PutObject"),
            Map.entry("AbortMultipartUpload", "s3:AbortMultipartUpload"),
            Map.entry("ListObjectsV2", "s3:ListBucket"),
            Map.entry("ListMultipartUploads", "s3:ListBucketMultipartUploads"),
            Map.entry("ListParts", "s3:ListMultipartUploadParts"),
            Map.entry("DeleteObject", "s3:DeleteObject"));

    /** The operations whose IAM action is granted on the bucket, not on its objects. */
    private static final List<String> BUCKET_LEVEL = List.of("ListObjectsV2", "ListMultipartUploads");

    /** How far S3 lets a request's signing time be from its own clock. */
    static final Duration MAX_SKEW = Duration.ofMinutes(15);

    static final String SIGNATURE_HINT = "The server computed another signature for the request: the secret key"
            + " does not belong to the access key id (" + S3Options.ACCESS_KEY.key() + " and "
            + S3Options.SECRET_KEY.key() + ", or what the credentials provider returned), or something between this"
            + " process and the server changed a signed part of the request (a proxy rewriting the path, the Host header or other headers)";
    static final String ACCESS_KEY_HINT = "The server does not know the access key id: check "
            + S3Options.ACCESS_KEY.key() + " (or what the credentials provider returned) and that the endpoint ("
            + S3Options.ENDPOINT.key() + ") is the server the key was made for";

    private static final Pattern EXPECTED_REGION = Pattern.compile("expecting '([a-z0-9-]+)'");
    private static final Pattern REGION_ELEMENT = Pattern.compile("<Region>([a-z0-9-]+)</Region>");
    private static final Pattern REQUEST_TIME = Pattern.compile("<RequestTime>([^<]+)</RequestTime>");
    private static final Pattern SERVER_TIME = Pattern.compile("<ServerTime>([^<]+)</ServerTime>");
    private static final DateTimeFormatter BASIC_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private RefusedRequestHints() {}

    /** The key of the region without its {@code s3.} prefix, as a per-bucket key ends. */
    private static String regionSuffix() {
        return S3Options.REGION.key().substring("s3.".length());
    }

    /**
     * The hint for an answer refusing the request for its credentials, signature, time or region, or {@code
     * null} if the answer is none of those.
     *
     * @param operation the S3 operation, as {@link S3Errors#translate} got it
     * @param location an {@link S3Location}, or text starting with {@code s3://bucket/}
     * @param code the S3 error code, {@code null} if the answer has none (a HEAD)
     */
    static String hint(String operation, Object location, AwsServiceException e, String code) {
        int status = e.statusCode();
        String region = wrongRegion(e, code);
        if (region != null) {
            String bucket = bucket(location);
            return "The bucket is in region '" + region + "' (the server says so), not in the region requests are"
                    + " signed for: set " + S3Options.REGION.key() + ": " + region
                    + (bucket == null
                            ? ""
                            : " (for this bucket alone: s3.bucket." + bucket + "." + regionSuffix() + ": " + region
                                    + ")");
        }
        if ("RequestTimeTooSkewed".equals(code)) {
            return clockSkew(e);
        }
        if ("SignatureDoesNotMatch".equals(code)) {
            return SIGNATURE_HINT;
        }
        if ("InvalidAccessKeyId".equals(code)) {
            return ACCESS_KEY_HINT;
        }
        if (status != 403 || (code != null && !"AccessDenied".equals(code))) {
            return null;
        }
        String action = action(operation);
        if (action == null) {
            return null;
        }
        if (operation.startsWith("HeadObject")) {
            return headHint(location);
        }
        return "Access denied: the request needs " + action + " on " + resource(operation, location)
                + " for the role or user the credentials belong to (in its IAM policy, and not denied by the bucket"
                + " policy)";
    }

    /**
     * S3 answers a HEAD of a missing key with 403, not 404, when the caller may not list the bucket; exists(),
     * mkdirs() and create() look for keys that are not there, so they fail where only reads were granted.
     */
    private static String headHint(Object location) {
        String bucket = bucket(location);
        String bucketArn = bucket == null ? "the bucket" : "arn:aws:s3:::" + bucket;
        return "Access denied to a HeadObject: it needs s3:GetObject on " + resource("HeadObject", location)
                + ", and for a key that does not exist S3 answers 403 instead of 404 unless the credentials also"
                + " have s3:ListBucket on " + bucketArn + "; exists(), mkdirs() and create() look for keys that do"
                + " not exist, so grant s3:ListBucket";
    }

    private static String clockSkew(AwsServiceException e) {
        Optional<Duration> offset = skew(e);
        if (offset.isEmpty()) {
            return "The server found the request's time too far from its own clock (S3 allows " + MAX_SKEW.toMinutes()
                    + " minutes): synchronise this machine's clock (NTP, chrony)";
        }
        Duration skew = offset.get();
        return "The server's clock is " + Math.abs(skew.getSeconds()) + " s "
                + (skew.isNegative() ? "behind" : "ahead of")
                + " the time this machine signed the request with (S3 allows " + MAX_SKEW.toMinutes()
                + " minutes): synchronise this machine's clock (NTP, chrony)";
    }

    /**
     * The server's time less the request's, from the answer's {@code RequestTime} and {@code ServerTime} (S3's
     * RequestTimeTooSkewed error), else from its {@code Date} header against this machine's clock now.
     */
    static Optional<Duration> skew(AwsServiceException e) {
        String body = body(e);
        Instant requestTime = time(REQUEST_TIME, body);
        Instant serverTime = time(SERVER_TIME, body);
        if (requestTime != null && serverTime != null) {
            return Optional.of(Duration.between(requestTime, serverTime));
        }
        return response(e)
                .flatMap(response -> response.firstMatchingHeader("Date"))
                .flatMap(RefusedRequestHints::httpDate)
                .map(date -> Duration.between(Instant.now(), date));
    }

    /**
     * The region the server says the bucket is in, when the answer says the request went to or was signed for
     * another one: {@code x-amz-bucket-region} of a 301 redirect, or the region of an {@code
     * AuthorizationHeaderMalformed} (its {@code Region} element, or "expecting '...'" in its message).
     */
    static String wrongRegion(AwsServiceException e, String code) {
        boolean redirect = e.statusCode() == 301 || "PermanentRedirect".equals(code);
        if (!redirect && !"AuthorizationHeaderMalformed".equals(code)) {
            return null;
        }
        Optional<String> header = response(e).flatMap(response -> response.firstMatchingHeader("x-amz-bucket-region"));
        if (header.isPresent()) {
            return header.get();
        }
        Matcher element = REGION_ELEMENT.matcher(body(e));
        if (element.find()) {
            return element.group(1);
        }
        Matcher expecting = EXPECTED_REGION.matcher(String.valueOf(e.getMessage()));
        return expecting.find() ? expecting.group(1) : null;
    }

    private static String action(String operation) {
        for (Map.Entry<String, String> entry : ACTIONS) {
            if (operation.startsWith(entry.getKey())) {
                return entry.getValue();
            }
        }
        return null;
    }

    /** The ARN the action is granted on: the object's, the bucket's objects', or the bucket's. */
    private static String resource(String operation, Object location) {
        String bucket = bucket(location);
        if (bucket == null) {
            return "the bucket";
        }
        if (BUCKET_LEVEL.stream().anyMatch(operation::startsWith)) {
            return "arn:aws:s3:::" + bucket;
        }
        return location instanceof S3Location && !((S3Location) location).key().isEmpty()
                ? "arn:aws:s3:::" + bucket + "/" + ((S3Location) location).key()
                : "arn:aws:s3:::" + bucket + "/*";
    }

    private static String bucket(Object location) {
        if (location instanceof S3Location) {
            return ((S3Location) location).bucket();
        }
        String text = String.valueOf(location);
        int start = text.indexOf("://");
        if (start < 0) {
            return null;
        }
        int end = text.indexOf('/', start + 3);
        String bucket = end < 0 ? text.substring(start + 3) : text.substring(start + 3, end);
        int space = bucket.indexOf(' ');
        return space < 0 ? bucket : bucket.substring(0, space);
    }

    private static Optional<SdkHttpResponse> response(AwsServiceException e) {
        AwsErrorDetails details = e.awsErrorDetails();
        return Optional.ofNullable(details == null ? null : details.sdkHttpResponse());
    }

    private static String body(AwsServiceException e) {
        AwsErrorDetails details = e.awsErrorDetails();
        SdkBytes raw = details == null ? null : details.rawResponse();
        return raw == null ? "" : new String(raw.asByteArray(), StandardCharsets.UTF_8);
    }

    /** S3 writes RequestTime as {@code 20261207T050000Z} and ServerTime as {@code 2026-12-07T05:20:00Z}. */
    private static Instant time(Pattern element, String body) {
        Matcher matcher = element.matcher(body);
        if (!matcher.find()) {
            return null;
        }
        String text = matcher.group(1).trim();
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException notIso) {
            try {
                return Instant.from(BASIC_TIME.parse(text));
            } catch (DateTimeParseException notBasic) {
                return null;
            }
        }
    }

    private static Optional<Instant> httpDate(String date) {
        try {
            return Optional.of(Instant.from(DateTimeFormatter.RFC_1123_DATE_TIME.parse(date)));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
