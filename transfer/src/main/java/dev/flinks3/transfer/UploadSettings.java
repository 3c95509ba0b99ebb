package dev.flinks3.transfer;

import static dev.flinks3.transfer.SettingChecks.blankToNull;

import java.util.Arrays;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * How output streams upload: the part size, parts in flight per stream, the process-wide limit on
 * part buffers, conditional creates and the storage class of written objects. Read by the upload
 * engine (and, for the CRT-based S3 client, its part size and memory limit). Each setting is declared
 * once, as a {@link Setting} constant here with its default and range (the {@code DEFAULT_*}, {@code MIN_*}
 * and {@code MAX_*} constants those refer to), which the plugin's configuration options take theirs from.
 * Immutable and thread-safe.
 *
 * @see <a href="https://docs.aws.amazon.com/AmazonS3/latest/userguide/qfacts.html">Amazon S3 multipart
 *     upload limits</a>
 */
public final class UploadSettings {

    /** S3's smallest part size (except for the last part): 5 MiB. */
    public static final long MIN_PART_SIZE = 5L * 1024 * 1024;
    /** S3's largest part size: 5 GiB. */
    public static final long MAX_PART_SIZE = 5L * 1024 * 1024 * 1024;
    /**
     * Largest part size that may be configured: 1 GiB, as the upload engine holds each part in one heap
     * array (a Java array holds less than 2 GiB), below S3's {@value #MAX_PART_SIZE}.
     */
    public static final long MAX_BUFFERED_PART_SIZE = 1L << 30;

    public static final long DEFAULT_PART_SIZE = 8L * 1024 * 1024;
    public static final int MAX_MAX_PARTS_IN_FLIGHT = 10_000;
    /** The process-wide part-buffer limit's upper default: 1 GiB (a smaller heap lowers it). */
    public static final long DEFAULT_MAX_BUFFERED_BYTES = DefaultMemoryLimit.CAP_BYTES;

    /**
     * S3's storage classes, the values {@code x-amz-storage-class} takes (S3 API reference, PutObject), in
     * alphabetical order; an engine converts the chosen name to its client's type. A test of the SDK engine
     * keeps this list equal to the SDK's.
     */
    public static final Set<String> STORAGE_CLASSES = Collections.unmodifiableSet(new TreeSet<>(Arrays.asList(
            "AWS_BACKUP_LOW_COST_WARM",
            "AWS_BACKUP_WARM",
            "DEEP_ARCHIVE",
            "EXPRESS_ONEZONE",
            "FSX_ONTAP",
            "FSX_OPENZFS",
            "GLACIER",
            "GLACIER_IR",
            "INTELLIGENT_TIERING",
            "ONEZONE_IA",
            "OUTPOSTS",
            "REDUCED_REDUNDANCY",
            "SNOW",
            "STANDARD",
            "STANDARD_IA")));

    /**
     * Parts an upload sends at one size before the part size grows (doubles), unless {@link #uniformParts()}: S3
     * allows 10,000 parts, so objects of any size up to S3's 5 TiB fit.
     */
    public static final int PARTS_PER_SIZE_STEP = 2_000;

    /** The host suffix of Cloudflare R2's S3 endpoints, whose uploads need parts of one size. */
    public static final String R2_HOST_SUFFIX = ".r2.cloudflarestorage.com";

    private static final Setting.Group SETTINGS = new Setting.Group(UploadSettings.class);

    /** See {@link #partSizeBytes()}: {@value #MIN_PART_SIZE}..{@value #MAX_BUFFERED_PART_SIZE} bytes. */
    public static final Setting<Long> PART_SIZE_BYTES =
            SETTINGS.bytes("partSizeBytes", DEFAULT_PART_SIZE, MIN_PART_SIZE, MAX_BUFFERED_PART_SIZE);
    /** See {@link #maxPartsInFlightPerStream()}: 1..{@value #MAX_MAX_PARTS_IN_FLIGHT}, 8 by default. */
    public static final Setting<Integer> MAX_PARTS_IN_FLIGHT_PER_STREAM =
            SETTINGS.integer("maxPartsInFlightPerStream", 8, 1, MAX_MAX_PARTS_IN_FLIGHT);
    /** See {@link #maxBufferedBytesPerProcess()}: at least one part of the smallest size. */
    public static final Setting<Long> MAX_BUFFERED_BYTES_PER_PROCESS =
            SETTINGS.bytes("maxBufferedBytesPerProcess", DEFAULT_MAX_BUFFERED_BYTES, MIN_PART_SIZE, Long.MAX_VALUE);
    /** See {@link #conditionalWritesEnabled()}: on by default. */
    public static final Setting<Boolean> CONDITIONAL_WRITES_ENABLED = SETTINGS.flag("conditionalWritesEnabled", true);
    /** See {@link #storageClass()}: one of {@link #STORAGE_CLASSES}, unset by default. */
    public static final Setting<String> STORAGE_CLASS =
            SETTINGS.value("storageClass", String.class, null, UploadSettings::knownStorageClass);
    /** See {@link #uniformParts()}: off by default. */
    public static final Setting<Boolean> UNIFORM_PARTS = SETTINGS.flag("uniformParts", false);
    /** See {@link #maxGrownPartBytes()}: {@value #MIN_PART_SIZE}..{@value #MAX_BUFFERED_PART_SIZE} bytes. */
    public static final Setting<Long> MAX_GROWN_PART_BYTES =
            SETTINGS.bytes("maxGrownPartBytes", MAX_BUFFERED_PART_SIZE, MIN_PART_SIZE, MAX_BUFFERED_PART_SIZE);

    /** This object's values: a copy of the builder's, never handed out or changed. */
    private final SettingValues values;

    private UploadSettings(Builder b) {
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

    /** Size of each multipart part in bytes, {@value #MIN_PART_SIZE}..{@value #MAX_BUFFERED_PART_SIZE}. */
    public long partSizeBytes() {
        return get(PART_SIZE_BYTES);
    }

    /** Parts one output stream may have uploading at once; the writer blocks past it. */
    public int maxPartsInFlightPerStream() {
        return get(MAX_PARTS_IN_FLIGHT_PER_STREAM);
    }

    /** Bytes all output streams of the process may hold in part buffers together. */
    public long maxBufferedBytesPerProcess() {
        return get(MAX_BUFFERED_BYTES_PER_PROCESS);
    }

    /** Use {@code If-None-Match: *} for {@code NO_OVERWRITE} creates. */
    public boolean conditionalWritesEnabled() {
        return get(CONDITIONAL_WRITES_ENABLED);
    }

    /**
     * The storage class of written objects ({@code x-amz-storage-class} on PutObject,
     * CreateMultipartUpload and CopyObject), one of {@link #STORAGE_CLASSES}; {@code null}
     * for the bucket's default (STANDARD on AWS).
     */
    public String storageClass() {
        return get(STORAGE_CLASS);
    }

    /**
     * Every part but an upload's last has the configured part size: the part size does not grow with the
     * part number, and {@code persist()} leaves a short buffer as a tail object instead of sending it as a
     * part. Cloudflare R2 refuses to complete an upload whose non-trailing parts differ in size
     * ({@code InvalidPart}); the largest object is then 10,000 parts of {@link #partSizeBytes()}.
     */
    public boolean uniformParts() {
        return get(UNIFORM_PARTS);
    }

    /**
     * The size in bytes grown parts stay within, {@value #MIN_PART_SIZE}..{@value #MAX_BUFFERED_PART_SIZE}
     * (default): parts grow with the part number up to the smallest of this, what the buffer limit holds
     * for one stream and 1 GiB, and never below {@link #partSizeBytes()}. The filesystem sets it to what
     * one request attempt can send, so a grown part is not abandoned and resent by every attempt.
     */
    public long maxGrownPartBytes() {
        return get(MAX_GROWN_PART_BYTES);
    }

    /** Every setting that is set, as {@code name=value, ...} in declaration order. */
    @Override
    public String toString() {
        return values.toString();
    }

    /** The storage class itself, or {@code null} for {@code null} or blank; see {@link Builder#storageClass}. */
    private static String knownStorageClass(String value) {
        String v = blankToNull(value);
        if (v != null && !STORAGE_CLASSES.contains(v)) {
            throw new IllegalArgumentException("unknown storage class '" + v + "', allowed: " + STORAGE_CLASSES);
        }
        return v;
    }

    /** Collects upload settings; every setter checks its own range, {@link #build()} the combinations. */
    public static final class Builder {
        private SettingValues values = new SettingValues(SETTINGS);

        private Builder() {}

        /**
         * Sets {@code setting}, one of {@link UploadSettings}'s constants, to {@code value}.
         *
         * @throws IllegalArgumentException naming the setting, the value and what is allowed, for a value outside
         *     its range, or for a setting of another part
         */
        public <T> Builder set(Setting<T> setting, T value) {
            values.set(setting, value);
            return this;
        }

        /** @throws IllegalArgumentException outside 5 MiB..1 GiB ({@link #MAX_BUFFERED_PART_SIZE}) */
        public Builder partSizeBytes(long value) {
            return set(PART_SIZE_BYTES, value);
        }

        /** @throws IllegalArgumentException outside 1..{@value #MAX_MAX_PARTS_IN_FLIGHT} */
        public Builder maxPartsInFlightPerStream(int value) {
            return set(MAX_PARTS_IN_FLIGHT_PER_STREAM, value);
        }

        /** @throws IllegalArgumentException below one part of the smallest size */
        public Builder maxBufferedBytesPerProcess(long value) {
            return set(MAX_BUFFERED_BYTES_PER_PROCESS, value);
        }

        public Builder conditionalWritesEnabled(boolean value) {
            return set(CONDITIONAL_WRITES_ENABLED, value);
        }

        /**
         * The storage class of written objects, or {@code null} for the bucket's default.
         *
         * @param value one of {@link #STORAGE_CLASSES} (case matters), or {@code null} or blank for the bucket's
         *     default
         * @throws IllegalArgumentException for any other value, naming it and the allowed ones
         */
        public Builder storageClass(String value) {
            return set(STORAGE_CLASS, value);
        }

        /** See {@link UploadSettings#uniformParts()}. */
        public Builder uniformParts(boolean value) {
            return set(UNIFORM_PARTS, value);
        }

        /**
         * See {@link UploadSettings#maxGrownPartBytes()}.
         *
         * @throws IllegalArgumentException outside 5 MiB..1 GiB
         */
        public Builder maxGrownPartBytes(long value) {
            return set(MAX_GROWN_PART_BYTES, value);
        }

        /** @throws IllegalArgumentException if the buffer limit is smaller than one part */
        public UploadSettings build() {
            long maxBufferedBytesPerProcess = values.get(MAX_BUFFERED_BYTES_PER_PROCESS);
            long partSizeBytes = values.get(PART_SIZE_BYTES);
            if (maxBufferedBytesPerProcess < partSizeBytes) {
                throw new IllegalArgumentException("process buffer limit " + maxBufferedBytesPerProcess
                        + " bytes is smaller than one part of " + partSizeBytes + " bytes");
            }
            return new UploadSettings(this);
        }
    }
}
