package dev.flinks3.fs;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.FallbackKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds configuration keys under the plugin's prefixes ({@code s3.}, {@code s3a.}, {@code fs.s3a.},
 * {@code presto.s3.}) that no option of {@link S3ConfigOptions} reads in any spelling, global or per bucket
 * ({@link BucketKeys}): typos, renamed
 * keys, and keys of the other S3 plugins this one does not take. They would have no effect, so each is
 * named in a warning, once per process (the {@code s3://} and {@code s3a://} factories are configured
 * with the same configuration). Keys that Flink itself reads under these prefixes ({@code
 * fs.s3a.priority.*}, {@code fs.s3a.limit.*}) are not reported. Only key names are logged, never values.
 */
public final class UnknownKeys {

    private static final Logger LOG = LoggerFactory.getLogger(UnknownKeys.class);

    /** The prefixes of the keys this plugin and the ones it replaces read. */
    static final List<String> PLUGIN_PREFIXES = List.of("s3.", "s3a.", "fs.s3a.", "presto.s3.");

    /**
     * Flink's own keys under the plugin's prefixes: factory priorities ({@code fs.<scheme>.priority.<class>},
     * Flink 2.3) and connection limits ({@code fs.<scheme>.limit.*}) of the {@code s3a} scheme.
     */
    static final List<String> FLINK_PREFIXES = List.of("fs.s3a.priority.", "fs.s3a.limit.");

    /** Every key and fallback key of the plugin's options. */
    static final Set<String> KNOWN = knownKeys(S3ConfigOptions.all());

    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private UnknownKeys() {}

    /** Every key and fallback key the plugin reads, sorted (for a "did you mean" next to an unknown key). */
    public static SortedSet<String> known() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(KNOWN));
    }

    /** Every key and fallback key of {@code options}. */
    static Set<String> knownKeys(Collection<ConfigOption<?>> options) {
        Set<String> keys = new TreeSet<>();
        for (ConfigOption<?> option : options) {
            keys.add(option.key());
            for (FallbackKey fallback : option.fallbackKeys()) {
                keys.add(fallback.getKey());
            }
        }
        return keys;
    }

    /**
     * The keys of {@code keys} under a plugin prefix that are neither known to the plugin nor Flink's own (also
     * read by the {@code doctor} command).
     */
    public static SortedSet<String> unknown(Collection<String> keys) {
        SortedSet<String> unknown = new TreeSet<>();
        for (String key : keys) {
            if (startsWithAny(key, PLUGIN_PREFIXES)
                    && !startsWithAny(key, FLINK_PREFIXES)
                    && !KNOWN.contains(key)
                    && BucketKeys.parse(key, KNOWN).isEmpty()) {
                unknown.add(key);
            }
        }
        return unknown;
    }

    /** Logs one warning naming the unknown keys of {@code config} that no earlier call warned about. */
    static void warnOnce(Configuration config) {
        SortedSet<String> fresh = new TreeSet<>();
        for (String key : unknown(config.keySet())) {
            if (WARNED.add(key)) {
                fresh.add(key);
            }
        }
        if (!fresh.isEmpty()) {
            LOG.warn(
                    "Configuration keys {} are not read by the flinks3 S3 filesystem and have no effect: a typo,"
                            + " a renamed key, or a key of another S3 plugin that this one does not take. The keys it"
                            + " reads, with the spellings of Flink's native, Hadoop and Presto S3 plugins, are listed in"
                            + " docs/configuration.md.",
                    fresh);
        }
    }

    private static boolean startsWithAny(String key, List<String> prefixes) {
        for (String prefix : prefixes) {
            if (key.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
