package dev.flinks3.fs;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Per-bucket configuration keys: any key of the plugin can be set for one bucket by putting {@code
 * bucket.<bucket>.} after its prefix, so {@code s3.bucket.<bucket>.endpoint} overrides {@code
 * s3.endpoint}, and S3A's {@code fs.s3a.bucket.<bucket>.endpoint} overrides {@code fs.s3a.endpoint}
 * (Hadoop-AWS documentation, "Configuring different S3 buckets with Per-Bucket Configuration"). The
 * prefixes are {@code s3.}, {@code s3a.} and {@code fs.s3a.}; Presto's {@code presto.s3.} keys have
 * no per-bucket form. Bucket names may contain dots: a key is split where its tail is a known key.
 */
final class BucketKeys {

    /** The prefixes whose keys have a per-bucket form. */
    static final List<String> PREFIXES = List.of("s3.", "s3a.", "fs.s3a.");

    private static final String BUCKET = "bucket.";

    private BucketKeys() {}

    /** The per-bucket spelling of {@code key} for {@code bucket}, or empty if {@code key} has none. */
    static Optional<String> scoped(String key, String bucket) {
        for (String prefix : PREFIXES) {
            if (key.startsWith(prefix)) {
                return Optional.of(prefix + BUCKET + bucket + "." + key.substring(prefix.length()));
            }
        }
        return Optional.empty();
    }

    /**
     * The bucket and the global key that {@code key} overrides for it, if {@code key} is a per-bucket
     * spelling of one of {@code known}; where a bucket name with dots makes several splits possible,
     * the longest known key wins.
     */
    static Optional<Map.Entry<String, String>> parse(String key, Set<String> known) {
        for (String prefix : PREFIXES) {
            if (!key.startsWith(prefix + BUCKET)) {
                continue;
            }
            String rest = key.substring(prefix.length() + BUCKET.length());
            String best = null;
            for (String global : known) {
                if (global.startsWith(prefix)) {
                    String suffix = global.substring(prefix.length());
                    if (rest.length() > suffix.length() + 1
                            && rest.endsWith("." + suffix)
                            && (best == null || global.length() > best.length())) {
                        best = global;
                    }
                }
            }
            if (best != null) {
                String bucket = rest.substring(0, rest.length() - (best.length() - prefix.length()) - 1);
                return Optional.of(Map.entry(bucket, best));
            }
        }
        return Optional.empty();
    }

    /** The buckets that {@code keys} configure per bucket. */
    static SortedSet<String> buckets(Collection<String> keys) {
        SortedSet<String> buckets = new TreeSet<>();
        for (String key : keys) {
            parse(key, UnknownKeys.KNOWN).ifPresent(e -> buckets.add(e.getKey()));
        }
        return buckets;
    }

    /**
     * What {@code values} set for {@code bucket} alone: the per-bucket keys as written and their values.
     * Two buckets with equal overrides have equal effective configurations and share one S3 client.
     */
    static SortedMap<String, String> overrides(Map<String, String> values, String bucket) {
        SortedMap<String, String> overrides = new TreeMap<>();
        values.forEach((key, value) -> parse(key, UnknownKeys.KNOWN)
                .filter(e -> e.getKey().equals(bucket))
                .ifPresent(e -> overrides.put(e.getValue(), value)));
        return overrides;
    }
}
