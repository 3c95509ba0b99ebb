package dev.flinks3.bench.checkpoint.job;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import picocli.CommandLine.ITypeConverter;

/**
 * The keyed state backend of the job, named as Flink's {@code state.backend.type} names it.
 *
 * <ul>
 *   <li>{@link #ROCKSDB}: RocksDB on local disk; checkpoints upload its files to {@code s3://}, a restore
 *       downloads them.
 *   <li>{@link #FORST}: ForSt (Flink 2.x disaggregated state) with its SST files on {@code s3://} as primary
 *       storage and a size-bounded local file cache; the job's state is accessed through Flink's asynchronous
 *       state API, checkpoints reference the files already uploaded and a restore downloads no state.
 * </ul>
 */
public enum StateBackendKind {
    ROCKSDB,
    FORST;

    /** The {@code state.backend.type} value and the option value: {@code rocksdb}, {@code forst}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The kind named {@code name} (case-insensitive).
     *
     * @throws IllegalArgumentException naming the allowed values
     */
    public static StateBackendKind named(String name) {
        for (StateBackendKind kind : values()) {
            if (kind.configName().equalsIgnoreCase(name.trim())) {
                return kind;
            }
        }
        throw new IllegalArgumentException("--state-backend must be one of "
                + Arrays.stream(values()).map(StateBackendKind::configName).collect(Collectors.joining(", "))
                + ", was '" + name + "'");
    }

    /** Picocli's converter for {@code --state-backend}. */
    public static final class Converter implements ITypeConverter<StateBackendKind> {
        @Override
        public StateBackendKind convert(String value) {
            return named(value);
        }
    }
}
