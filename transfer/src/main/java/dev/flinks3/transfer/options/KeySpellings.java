package dev.flinks3.transfer.options;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Collects the other spellings of one configuration key, as the other S3 plugins of Flink read them,
 * so that a user switching plugins keeps the configuration file unchanged.
 *
 * <ul>
 *   <li>{@code flink-s3-fs-hadoop} passes every key starting with {@code s3.}, {@code s3a.} or
 *       {@code fs.s3a.} to S3A as {@code fs.s3a.<rest>}: {@link #hadoop(String...)} adds all three.
 *   <li>{@code flink-s3-fs-presto} passes every key starting with {@code s3.} or {@code presto.s3.}
 *       to Presto as {@code presto.s3.<rest>}: {@link #presto(String...)} adds both.
 * </ul>
 *
 * The option's own key is never repeated among its fallback keys. {@link Option.Builder} collects an option's
 * spellings with one of these.
 */
final class KeySpellings {

    private final String key;
    private final Set<String> fallbacks = new LinkedHashSet<>();

    private KeySpellings(String key) {
        this.key = key;
    }

    static KeySpellings of(String key) {
        return new KeySpellings(key);
    }

    /** Keys taken literally (e.g. Flink's own older spellings such as {@code s3.access.key}). */
    KeySpellings keys(String... literalKeys) {
        for (String k : literalKeys) {
            add(k);
        }
        return this;
    }

    /** S3A property names without the {@code fs.s3a.} prefix, in all three spellings the Hadoop plugin reads. */
    KeySpellings hadoop(String... s3aSuffixes) {
        for (String suffix : s3aSuffixes) {
            add("s3." + suffix);
            add("s3a." + suffix);
            add("fs.s3a." + suffix);
        }
        return this;
    }

    /**
     * S3A property names for which only the {@code s3a.} and {@code fs.s3a.} spellings are taken,
     * because the {@code s3.} spelling means something else in Flink's native plugin.
     */
    KeySpellings hadoopWithoutS3Prefix(String... s3aSuffixes) {
        for (String suffix : s3aSuffixes) {
            add("s3a." + suffix);
            add("fs.s3a." + suffix);
        }
        return this;
    }

    /** Presto property names without the {@code presto.s3.} prefix, in both spellings the Presto plugin reads. */
    KeySpellings presto(String... prestoSuffixes) {
        for (String suffix : prestoSuffixes) {
            add("presto.s3." + suffix);
            add("s3." + suffix);
        }
        return this;
    }

    /** The fallback keys in the order added, the first added first. */
    List<String> toList() {
        return List.copyOf(fallbacks);
    }

    private void add(String k) {
        if (!k.equals(key)) {
            fallbacks.add(k);
        }
    }
}
