package dev.flinks3.transfer;

/**
 * How objects are read: the ranged GETs of an input stream's read-ahead, and of a bulk copy to local
 * files (RocksDB restore). Read by the input streams and the bulk downloader only. Each setting is declared once,
 * as a {@link Setting} constant here with its default and range, which the plugin's configuration options take
 * theirs from. Immutable and thread-safe.
 */
public final class ReadSettings {

    /** Below 64 KiB a GET costs more than it carries. */
    public static final long MIN_RANGE_BYTES = 64L * 1024;

    public static final long MAX_RANGE_BYTES = 1L << 30;
    public static final int MAX_READ_AHEAD_PARALLELISM = 64;
    public static final int MAX_BULK_COPY_CONCURRENCY = 1024;

    private static final Setting.Group SETTINGS = new Setting.Group(ReadSettings.class);

    /** See {@link #readAheadBytes()}: 64 KiB..1 GiB, 8 MiB by default. */
    public static final Setting<Long> READ_AHEAD_BYTES =
            SETTINGS.bytes("readAheadBytes", 8L << 20, MIN_RANGE_BYTES, MAX_RANGE_BYTES);
    /** See {@link #readAheadParallelism()}: 1..{@value #MAX_READ_AHEAD_PARALLELISM}, 8 by default. */
    public static final Setting<Integer> READ_AHEAD_PARALLELISM =
            SETTINGS.integer("readAheadParallelism", 8, 1, MAX_READ_AHEAD_PARALLELISM);
    /** See {@link #bulkCopyConcurrency()}: 1..{@value #MAX_BULK_COPY_CONCURRENCY}, 16 by default. */
    public static final Setting<Integer> BULK_COPY_CONCURRENCY =
            SETTINGS.integer("bulkCopyConcurrency", 16, 1, MAX_BULK_COPY_CONCURRENCY);
    /** See {@link #bulkCopyRangeBytes()}: 64 KiB..1 GiB, 8 MiB by default. */
    public static final Setting<Long> BULK_COPY_RANGE_BYTES =
            SETTINGS.bytes("bulkCopyRangeBytes", 8L << 20, MIN_RANGE_BYTES, MAX_RANGE_BYTES);
    /** See {@link #directGetsEnabled()}: on by default. */
    public static final Setting<Boolean> DIRECT_GETS_ENABLED = SETTINGS.flag("directGetsEnabled", true);

    /** This object's values: a copy of the builder's, never handed out or changed. */
    private final SettingValues values;

    private ReadSettings(Builder b) {
        this.values = b.values.copy();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding every setting of this object. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.values = values.copy();
        return b;
    }

    /**
     * The value of {@code setting}, one of this class's constants.
     *
     * @throws IllegalArgumentException for a setting of another part
     */
    public <T> T get(Setting<T> setting) {
        return values.get(setting);
    }

    /** Bytes one sequential-read GET asks for ahead of the reader. */
    public long readAheadBytes() {
        return get(READ_AHEAD_BYTES);
    }

    /**
     * Ranged GETs of {@link #readAheadBytes()} each that one input stream keeps in flight ahead of a
     * sequential reader; 1 reads over a single connection. One stream holds at most this many times
     * {@link #readAheadBytes()} in read-ahead buffers.
     */
    public int readAheadParallelism() {
        return get(READ_AHEAD_PARALLELISM);
    }

    /** Files downloaded at once by a bulk copy to local disk. */
    public int bulkCopyConcurrency() {
        return get(BULK_COPY_CONCURRENCY);
    }

    /** Bytes one ranged GET of a bulk copy asks for; a file of more bytes is fetched in several ranges. */
    public long bulkCopyRangeBytes() {
        return get(BULK_COPY_RANGE_BYTES);
    }

    /**
     * Whether positional reads and streamed ranges are first sent without the SDK's request pipeline (signed
     * with the SDK's signer, sent on the blocking HTTP client); anything but a plain 206 answer is then sent
     * again through the pipeline. Only with the SDK's clients, and not where a GET needs more than a signature
     * (SSE-C, requester pays, access points, S3 Express directory buckets).
     */
    public boolean directGetsEnabled() {
        return get(DIRECT_GETS_ENABLED);
    }

    /** Every setting that is set, as {@code name=value, ...} in declaration order. */
    @Override
    public String toString() {
        return values.toString();
    }

    /** Collects read settings; every setter checks its range. */
    public static final class Builder {
        private SettingValues values = new SettingValues(SETTINGS);

        private Builder() {}

        /**
         * Sets {@code setting}, one of {@link ReadSettings}'s constants, to {@code value}.
         *
         * @throws IllegalArgumentException naming the setting, the value and what is allowed, for a value outside
         *     its range, or for a setting of another part
         */
        public <T> Builder set(Setting<T> setting, T value) {
            values.set(setting, value);
            return this;
        }

        /** @throws IllegalArgumentException outside 64 KiB..1 GiB */
        public Builder readAheadBytes(long value) {
            return set(READ_AHEAD_BYTES, value);
        }

        /** @throws IllegalArgumentException outside 1..{@value #MAX_READ_AHEAD_PARALLELISM} */
        public Builder readAheadParallelism(int value) {
            return set(READ_AHEAD_PARALLELISM, value);
        }

        /** @throws IllegalArgumentException outside 1..{@value #MAX_BULK_COPY_CONCURRENCY} */
        public Builder bulkCopyConcurrency(int value) {
            return set(BULK_COPY_CONCURRENCY, value);
        }

        /** @throws IllegalArgumentException outside 64 KiB..1 GiB */
        public Builder bulkCopyRangeBytes(long value) {
            return set(BULK_COPY_RANGE_BYTES, value);
        }

        /** See {@link ReadSettings#directGetsEnabled()}. */
        public Builder directGetsEnabled(boolean value) {
            return set(DIRECT_GETS_ENABLED, value);
        }

        /** The settings of this builder's current values; later changes to the builder do not reach them. */
        public ReadSettings build() {
            return new ReadSettings(this);
        }
    }
}
