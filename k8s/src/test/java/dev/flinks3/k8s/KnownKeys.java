package dev.flinks3.k8s;

import dev.flinks3.fs.S3ConfigOptions;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.state.rocksdb.RocksDBOptions;

/** Configuration keys as the code that reads them declares them. */
final class KnownKeys {

    /** The prefixes of keys an S3 filesystem plugin reads (ours, presto's and hadoop's spellings). */
    private static final List<String> S3_PREFIXES = List.of("s3.", "s3a.", "fs.s3.", "fs.s3a.", "presto.s3.");

    /** Flink's option classes for what the manifests configure: slots, state backend, checkpoints, web UI. */
    private static final List<Class<?>> FLINK_OPTION_CLASSES = List.of(
            CoreOptions.class,
            TaskManagerOptions.class,
            StateBackendOptions.class,
            CheckpointingOptions.class,
            RocksDBOptions.class,
            WebOptions.class);

    /** Where Flink reads a metric reporter's options: {@code metrics.reporter.<name>.<option>}. */
    static final String REPORTER_PREFIX = "metrics.reporter.";
    /**
     * The options of a named reporter: Flink's own ({@link MetricOptions}, declared without the prefix)
     * and {@code port} of its Prometheus reporter, which is declared in flink-metrics-prometheus (shipped
     * in the image's plugins/, not on this module's classpath).
     */
    private static final List<ConfigOption<?>> REPORTER_OPTIONS = List.of(
            MetricOptions.REPORTER_FACTORY_CLASS,
            MetricOptions.REPORTER_INTERVAL,
            MetricOptions.REPORTER_INCLUDES,
            MetricOptions.REPORTER_EXCLUDES);

    private static final String PROMETHEUS_REPORTER_PORT = "port";

    private KnownKeys() {}

    /** Whether {@code key} is an option of a named metric reporter that Flink or its Prometheus reporter reads. */
    static boolean isReporterKey(String key) {
        if (!key.startsWith(REPORTER_PREFIX)) {
            return false;
        }
        String rest = key.substring(REPORTER_PREFIX.length());
        int dot = rest.indexOf('.');
        if (dot < 1) {
            return false;
        }
        String option = rest.substring(dot + 1);
        return option.equals(PROMETHEUS_REPORTER_PORT)
                || REPORTER_OPTIONS.stream().anyMatch(known -> known.key().equals(option));
    }

    static boolean isS3Key(String key) {
        return S3_PREFIXES.stream().anyMatch(key::startsWith);
    }

    /** Every key and fallback key of our plugin's options. */
    static Set<String> ourPluginKeys() {
        Set<String> keys = new HashSet<>();
        for (ConfigOption<?> option : S3ConfigOptions.all()) {
            keys.add(option.key());
            option.fallbackKeys().forEach(fallback -> keys.add(fallback.getKey()));
        }
        return keys;
    }

    /** The current keys (not fallback or deprecated spellings) of Flink's options used here. */
    static Set<String> flinkKeys() {
        Set<String> keys = new HashSet<>();
        for (Class<?> type : FLINK_OPTION_CLASSES) {
            for (Field field : type.getFields()) {
                if (Modifier.isStatic(field.getModifiers()) && ConfigOption.class.isAssignableFrom(field.getType())) {
                    keys.add(((ConfigOption<?>) get(field)).key());
                }
            }
        }
        return keys;
    }

    private static Object get(Field field) {
        try {
            return field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
