package dev.flinks3.transfer;

import static dev.flinks3.transfer.SettingChecks.inRange;

/**
 * How objects are read: the ranged GETs of an input stream's read-ahead, and of a bulk copy to local
 * files (RocksDB restore). Read by the input streams and the bulk downloader only. The {@code
 * DEFAULT_*}, {@code MIN_*} and {@code MAX_*} constants are the one declaration of each default and
 * range, which the plugin's configuration options take theirs from. Immutable and thread-safe.
 */
public final class ReadSettings {

    /** Below 64 KiB a GET costs more than it carries. */
    public static final long MIN_RANGE_BYTES = 64L * 1024;

    public static final long MAX_RANGE_BYTES = 1L << 30;
    public static final long DEFAULT_READ_AHEAD_BYTES = 8L * 1024 * 1024;
    public static final int DEFAULT_READ_AHEAD_PARALLELISM = 8;
    public static final int MAX_READ_AHEAD_PARALLELISM = 64;
    public static final int DEFAULT_BULK_COPY_CONCURRENCY = 16;
    public static final int MAX_BULK_COPY_CONCURRENCY = 1024;
    public static final long DEFAULT_BULK_COPY_RANGE_BYTES = 8L * 1024 * 1024;
    public static final boolean DEFAULT_DIRECT_GETS_ENABLED = true;

    /** This object's values: a copy of the builder that built it, never handed out or changed. */
    private final Builder values;

    private ReadSettings(Builder b) {
        this.values = b.copy();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding every setting of this object. */
    public Builder toBuilder() {
        return values.copy();
    }

    /** Bytes one sequential-read GET asks for ahead of the reader. */
    public long readAheadBytes() {
        return values.readAheadBytes;
    }

    /**
     * Ranged GETs of {@link #readAheadBytes()} each that one input stream keeps in flight ahead of a
     * sequential reader; 1 reads over a single connection. One stream holds at most this many times
     * {@link #readAheadBytes()} in read-ahead buffers.
     */
    public int readAheadParallelism() {
        return values.readAheadParallelism;
    }

    /** Files downloaded at once by a bulk copy to local disk. */
    public int bulkCopyConcurrency() {
        return values.bulkCopyConcurrency;
    }

    /** Bytes one ranged GET of a bulk copy asks for; a file of more bytes is fetched in several ranges. */
    public long bulkCopyRangeBytes() {
        return values.bulkCopyRangeBytes;
    }

    /**
     * Whether positional reads and streamed ranges are first sent without the SDK's request pipeline (signed
     * with the SDK's signer, sent on the blocking HTTP client); anything but a plain 206 answer is then sent
     * again through the pipeline. Only with the SDK's clients, and not where a GET needs more than a signature
     * (SSE-C, requester pays, access points, S3 Express directory buckets).
     */
    public boolean directGetsEnabled() {
        return values.directGetsEnabled;
    }

    @Override
    public String toString() {
        return SettingChecks.fieldsText(values);
    }

    /** Collects read settings; every setter checks its range. */
    public static final class Builder implements Cloneable {
        private long readAheadBytes = DEFAULT_READ_AHEAD_BYTES;
        private int readAheadParallelism = DEFAULT_READ_AHEAD_PARALLELISM;
        private int bulkCopyConcurrency = DEFAULT_BULK_COPY_CONCURRENCY;
        private long bulkCopyRangeBytes = DEFAULT_BULK_COPY_RANGE_BYTES;
        private boolean directGetsEnabled = DEFAULT_DIRECT_GETS_ENABLED;

        private Builder() {}

        /** A field-by-field copy; every field is an immutable value. */
        private Builder copy() {
            try {
                return (Builder) clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }

        /** @throws IllegalArgumentException outside 64 KiB..1 GiB */
        public Builder readAheadBytes(long value) {
            this.readAheadBytes = inRange("read-ahead in bytes", value, MIN_RANGE_BYTES, MAX_RANGE_BYTES);
            return this;
        }

        /** @throws IllegalArgumentException outside 1..{@value #MAX_READ_AHEAD_PARALLELISM} */
        public Builder readAheadParallelism(int value) {
            this.readAheadParallelism = inRange("readAheadParallelism", value, 1, MAX_READ_AHEAD_PARALLELISM);
            return this;
        }

        /** @throws IllegalArgumentException outside 1..{@value #MAX_BULK_COPY_CONCURRENCY} */
        public Builder bulkCopyConcurrency(int value) {
            this.bulkCopyConcurrency = inRange("bulkCopyConcurrency", value, 1, MAX_BULK_COPY_CONCURRENCY);
            return this;
        }

        /** @throws IllegalArgumentException outside 64 KiB..1 GiB */
        public Builder bulkCopyRangeBytes(long value) {
            this.bulkCopyRangeBytes = inRange("bulk-copy range in bytes", value, MIN_RANGE_BYTES, MAX_RANGE_BYTES);
            return this;
        }

        /** See {@link ReadSettings#directGetsEnabled()}. */
        public Builder directGetsEnabled(boolean value) {
            this.directGetsEnabled = value;
            return this;
        }

        /** The settings of this builder's current values; later changes to the builder do not reach them. */
        public ReadSettings build() {
            return new ReadSettings(this);
        }
    }
}
