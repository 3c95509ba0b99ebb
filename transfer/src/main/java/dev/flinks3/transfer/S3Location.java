package dev.flinks3.transfer;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A bucket and a key, parsed once from an {@code s3://bucket/key} (or {@code s3a://}) URI.
 *
 * <p>The key never starts with {@code /}; the root of a bucket has the empty key. Validation follows
 * the S3 documentation ("Bucket naming rules", "Creating object key names"): bucket names are 3 to 63
 * characters of lower-case letters, digits, dots and hyphens (underscores and upper case are accepted
 * for S3-compatible servers that allow them), and keys are at most 1,024 bytes in UTF-8. Instances are
 * immutable and thread-safe.
 */
public final class S3Location {

    /** Longest key S3 accepts, in bytes of UTF-8. */
    public static final int MAX_KEY_BYTES = 1024;

    /** The suffix of S3 Express One Zone directory bucket names ("Directory bucket naming rules"). */
    public static final String DIRECTORY_BUCKET_SUFFIX = "--x-s3";

    /**
     * The suffix of the aliases of access points for directory buckets ("Naming rules for access points for
     * directory buckets"): a request to the alias reaches the directory bucket behind it.
     */
    public static final String DIRECTORY_ACCESS_POINT_SUFFIX = "--xa-s3";

    private static final Pattern BUCKET = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]");

    private final String scheme;
    private final String bucket;
    private final String key;

    private S3Location(String scheme, String bucket, String key) {
        this.scheme = scheme;
        this.bucket = bucket;
        this.key = key;
    }

    /**
     * Creates a location after validating bucket and key.
     *
     * @param scheme the URI scheme used in messages, {@code s3} or {@code s3a}
     * @throws IllegalArgumentException if the bucket name is not a valid S3 bucket name, names an S3
     *     Express One Zone directory bucket (ending {@value #DIRECTORY_BUCKET_SUFFIX}) or the alias of an access
     *     point for one (ending {@value #DIRECTORY_ACCESS_POINT_SUFFIX}), which is not
     *     supported, or the key is longer than {@value #MAX_KEY_BYTES} bytes
     */
    public static S3Location of(String scheme, String bucket, String key) {
        Objects.requireNonNull(scheme, "scheme");
        if (bucket == null || bucket.isEmpty()) {
            throw new IllegalArgumentException("S3 path has no bucket: '" + scheme + "://" + nullToEmpty(bucket) + "/"
                    + nullToEmpty(key) + "'; expected " + scheme + "://<bucket>/<key>");
        }
        if (!BUCKET.matcher(bucket).matches() || bucket.contains("..")) {
            throw new IllegalArgumentException(
                    "Illegal S3 bucket name '" + bucket + "': a bucket name is 3 to 63 characters of letters,"
                            + " digits, '.', '-' or '_', starting and ending with a letter or digit");
        }
        if (isDirectoryBucket(bucket)) {
            throw new IllegalArgumentException(directoryBucketRefusal(bucket, scheme + "://" + bucket + "/"));
        }
        String k = key == null ? "" : stripLeadingSlashes(key);
        int bytes = k.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_KEY_BYTES) {
            throw new IllegalArgumentException(
                    "S3 key of " + bytes + " bytes is longer than the " + MAX_KEY_BYTES + " bytes S3 allows: " + scheme
                            + "://" + bucket + "/" + k.substring(0, Math.min(k.length(), 64)) + "...");
        }
        return new S3Location(scheme, bucket, k);
    }

    /**
     * Parses a URI of the form {@code scheme://bucket/key}. The URI's path is taken decoded, so keys
     * with spaces, {@code %}, {@code +} or non-ASCII characters round-trip.
     *
     * @throws IllegalArgumentException if the URI has no bucket or names an invalid location
     */
    public static S3Location of(URI uri) {
        String scheme = uri.getScheme() == null ? "s3" : uri.getScheme();
        String bucket = uri.getAuthority();
        String path = uri.getPath();
        return of(scheme, bucket, path == null ? "" : path);
    }

    /** The URI scheme this location was named with ({@code s3} or {@code s3a}). */
    public String scheme() {
        return scheme;
    }

    /** The bucket name. */
    public String bucket() {
        return bucket;
    }

    /** The object key, without a leading slash; empty for the bucket root. */
    public String key() {
        return key;
    }

    /** True if this names the root of the bucket. */
    public boolean isRoot() {
        return key.isEmpty();
    }

    /** This location with another key in the same bucket. */
    public S3Location withKey(String newKey) {
        return of(scheme, bucket, newKey);
    }

    /** The key as a directory prefix: empty for the root, otherwise the key with one trailing slash. */
    public String directoryPrefix() {
        if (key.isEmpty()) {
            return "";
        }
        return key.endsWith("/") ? key : key + "/";
    }

    /**
     * True if {@code name} names an S3 Express One Zone directory bucket: its own name (ending {@value
     * #DIRECTORY_BUCKET_SUFFIX}), or the alias or ARN of an access point for one (ending {@value
     * #DIRECTORY_ACCESS_POINT_SUFFIX}, or an {@code s3express} ARN).
     */
    public static boolean isDirectoryBucket(String name) {
        return name.endsWith(DIRECTORY_BUCKET_SUFFIX)
                || name.endsWith(DIRECTORY_ACCESS_POINT_SUFFIX)
                || name.startsWith("arn:") && name.contains(":s3express:");
    }

    /**
     * Why a directory bucket is refused: its semantics differ from a general purpose bucket's where
     * this filesystem relies on them ("Differences for directory buckets" in the S3 User Guide).
     *
     * @param name the directory bucket, or the access point alias or ARN it is reached through
     * @param where what names it, e.g. {@code s3://bucket/} or a configuration key
     */
    public static String directoryBucketRefusal(String name, String where) {
        String what = name.endsWith(DIRECTORY_BUCKET_SUFFIX) ? "" : " reached through access point";
        return "S3 Express One Zone directory bucket" + what + " '" + name + "' (" + where + ") is not supported:"
                + " its listings are not in key order and take only prefixes that end with '/', its"
                + " ETags are not MD5s (so a write whose response was lost cannot be recognised and a recovered"
                + " FileSink commit cannot be verified), and its multipart uploads need consecutive part numbers."
                + " Use a general purpose bucket.";
    }

    private static String stripLeadingSlashes(String key) {
        int i = 0;
        while (i < key.length() && key.charAt(i) == '/') {
            i++;
        }
        return key.substring(i);
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof S3Location)) {
            return false;
        }
        S3Location that = (S3Location) o;
        return bucket.equals(that.bucket) && key.equals(that.key);
    }

    @Override
    public int hashCode() {
        return 31 * bucket.hashCode() + key.hashCode();
    }

    /** The location as {@code scheme://bucket/key}, as used in every error message. */
    @Override
    public String toString() {
        return scheme + "://" + bucket + "/" + key;
    }
}
