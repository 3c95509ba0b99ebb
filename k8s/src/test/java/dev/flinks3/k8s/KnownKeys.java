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
            CoreOptions.class, TaskManagerOptions.class, StateBackendOptions.class, CheckpointingOptions.class,
            RocksDBOptions.class, WebOptions.class);

    private KnownKeys() {}

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
