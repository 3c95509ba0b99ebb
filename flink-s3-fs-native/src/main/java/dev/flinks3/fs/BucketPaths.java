package dev.flinks3.fs;

import dev.flinks3.transfer.S3Location;
import java.net.URI;
import org.apache.flink.core.fs.Path;

/**
 * Translates between Flink {@link Path}s and S3 locations for one filesystem.
 *
 * <p>The key is the decoded path of the path's URI ({@code Path.toUri().getPath()}) without its
 * leading slash, so keys with spaces, {@code +}, {@code %}, {@code =}, {@code #} or non-ASCII
 * characters round-trip: Flink's {@code Path} quotes them in its URI and the decoded path gives them
 * back. A path without scheme or bucket takes the filesystem's; a relative path is taken from the
 * bucket's root, which is the working directory. Immutable.
 */
final class BucketPaths {

    private final String scheme;
    private final String defaultBucket;

    /**
     * @param fsUri the filesystem's URI, {@code scheme://bucket/}; the bucket may be missing when the
     *     filesystem was created for a path without one, and every path must then name its bucket
     */
    BucketPaths(URI fsUri) {
        this.scheme = fsUri.getScheme();
        this.defaultBucket = fsUri.getAuthority();
    }

    /**
     * @throws IllegalArgumentException if the path names no bucket and the filesystem has none, or
     *     names an invalid bucket or a key longer than S3 allows
     */
    S3Location toLocation(Path path) {
        URI uri = path.toUri();
        String bucket = uri.getAuthority() != null ? uri.getAuthority() : defaultBucket;
        String key = uri.getPath() == null ? "" : stripSlashes(uri.getPath());
        return S3Location.of(scheme, bucket, key);
    }

    /** The Flink path of a key in a bucket; a key ending with {@code /} (a directory) loses the slash. */
    Path toPath(String bucket, String key) {
        return new Path(scheme, bucket, "/" + stripSlashes(key));
    }

    /** The Flink path of a location. */
    Path toPath(S3Location location) {
        return toPath(location.bucket(), location.key());
    }

    private static String stripSlashes(String path) {
        int start = 0;
        int end = path.length();
        while (start < end && path.charAt(start) == '/') {
            start++;
        }
        while (end > start && path.charAt(end - 1) == '/') {
            end--;
        }
        return path.substring(start, end);
    }
}
