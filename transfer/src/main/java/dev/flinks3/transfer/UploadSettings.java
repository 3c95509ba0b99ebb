package dev.flinks3.transfer;

import static dev.flinks3.transfer.SettingChecks.blankToNull;
import static dev.flinks3.transfer.SettingChecks.inRange;

import java.util.Arrays;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * How output streams upload: the part size, parts in flight per stream, the process-wide limit on
 * part buffers, conditional creates and the storage class of written objects. Read by the upload
 * engine (and, for the CRT-based S3 client, its part size and memory limit). The {@code DEFAULT_*},
 * {@code MIN_*} and {@code MAX_*} constants are the one declaration of each default and range, which
 * the plugin's configuration options take theirs from. Immutable and thread-safe.
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
    public static final int DEFAULT_MAX_PARTS_IN_FLIGHT = 8;
    public static final int MAX_MAX_PARTS_IN_FLIGHT = 10_000;
    /** The process-wide part-buffer limit's upper default: 1 GiB (a smaller heap lowers it). */
    public static final long DEFAULT_MAX_BUFFERED_BYTES = DefaultMemoryLimit.CAP_BYTES;

    public static final boolean DEFAULT_CONDITIONAL_WRITES_ENABLED = true;

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

    /** The host suffix of Cloudflare R2's S3 endpoints, whose uploads need parts of one size. */
    public static final String R2_HOST_SUFFIX = ".r2.cloudflarestorage.com";

    /** This object's values: a copy of the builder that built it, never handed out or changed. */
    private final Builder values;

    private UploadSettings(Builder b) {
        this.values = b.copy();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding every setting of this object. */
    public Builder toBuilder() {
        return values.copy();
    }

    /** Size of each multipart part in bytes, {@value #MIN_PART_SIZE}..{@value #MAX_BUFFERED_PART_SIZE}. */
    public long partSizeBytes() {
        return values.partSizeBytes;
    }

    /** Parts one output stream may have uploading at once; the writer blocks past it. */
    public int maxPartsInFlightPerStream() {
        return values.maxPartsInFlightPerStream;
    }

    /** Bytes all output streams of the process may hold in part buffers together. */
    public long maxBufferedBytesPerProcess() {
        return values.maxBufferedBytesPerProcess;
    }

    /** Use {@code If-None-Match: *} for {@code NO_OVERWRITE} creates. */
    public boolean conditionalWritesEnabled() {
        return values.conditionalWritesEnabled;
    }

    /**
     * The storage class of written objects ({@code x-amz-storage-class} on PutObject,
     * CreateMultipartUpload and CopyObject), one of {@link #STORAGE_CLASSES}; {@code null}
     * for the bucket's default (STANDARD on AWS).
     */
    public String storageClass() {
        return values.storageClass;
    }

    /**
     * Every part but an upload's last has the configured part size: the part size does not grow with the
     * part number, and {@code persist()} leaves a short buffer as a tail object instead of sending it as a
     * part. Cloudflare R2 refuses to complete an upload whose non-trailing parts differ in size
     * ({@code InvalidPart}); the largest object is then 10,000 parts of {@link #partSizeBytes()}.
     */
    public boolean uniformParts() {
        return values.uniformParts;
    }

    /**
     * The size in bytes grown parts stay within, {@value #MIN_PART_SIZE}..{@value #MAX_BUFFERED_PART_SIZE}
     * (default): parts grow with the part number up to the smallest of this, what the buffer limit holds
     * for one stream and 1 GiB, and never below {@link #partSizeBytes()}. The filesystem sets it to what
     * one request attempt can send, so a grown part is not abandoned and resent by every attempt.
     */
    public long maxGrownPartBytes() {
        return values.maxGrownPartBytes;
    }

    @Override
    public String toString() {
        return SettingChecks.fieldsText(values);
    }

    /** Collects upload settings; every setter checks its own range, {@link #build()} the combinations. */
    public static final class Builder implements Cloneable {
        private long partSizeBytes = DEFAULT_PART_SIZE;
        private int maxPartsInFlightPerStream = DEFAULT_MAX_PARTS_IN_FLIGHT;
        private long maxBufferedBytesPerProcess = DEFAULT_MAX_BUFFERED_BYTES;
        private boolean conditionalWritesEnabled = DEFAULT_CONDITIONAL_WRITES_ENABLED;
        private String storageClass;
        private boolean uniformParts;
        private long maxGrownPartBytes = MAX_BUFFERED_PART_SIZE;

        private Builder() {}

        /** A field-by-field copy; every field is an immutable value. */
        private Builder copy() {
            try {
                return (Builder) clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }

        /** @throws IllegalArgumentException outside 5 MiB..1 GiB ({@link #MAX_BUFFERED_PART_SIZE}) */
        public Builder partSizeBytes(long value) {
            this.partSizeBytes = inRange("part size in bytes", value, MIN_PART_SIZE, MAX_BUFFERED_PART_SIZE);
            return this;
        }

        /** @throws IllegalArgumentException outside 1..{@value #MAX_MAX_PARTS_IN_FLIGHT} */
        public Builder maxPartsInFlightPerStream(int value) {
            this.maxPartsInFlightPerStream = inRange("maxPartsInFlightPerStream", value, 1, MAX_MAX_PARTS_IN_FLIGHT);
            return this;
        }

        /** @throws IllegalArgumentException below one part of the smallest size */
        public Builder maxBufferedBytesPerProcess(long value) {
            this.maxBufferedBytesPerProcess =
                    inRange("process buffer limit in bytes", value, MIN_PART_SIZE, Long.MAX_VALUE);
            return this;
        }

        public Builder conditionalWritesEnabled(boolean value) {
            this.conditionalWritesEnabled = value;
            return this;
        }

        /**
         * The storage class of written objects, or {@code null} for the bucket's default.
         *
         * @param value one of {@link #STORAGE_CLASSES} (case matters), or {@code null} or blank for the bucket's
         *     default
         * @throws IllegalArgumentException for any other value, naming it and the allowed ones
         */
        public Builder storageClass(String value) {
            String v = blankToNull(value);
            if (v != null && !STORAGE_CLASSES.contains(v)) {
                throw new IllegalArgumentException("unknown storage class '" + v + "', allowed: " + STORAGE_CLASSES);
            }
            this.storageClass = v;
            return this;
        }

        /** See {@link UploadSettings#uniformParts()}. */
        public Builder uniformParts(boolean value) {
            this.uniformParts = value;
            return this;
        }

        /**
         * See {@link UploadSettings#maxGrownPartBytes()}.
         *
         * @throws IllegalArgumentException outside 5 MiB..1 GiB
         */
        public Builder maxGrownPartBytes(long value) {
            this.maxGrownPartBytes =
                    inRange("largest grown part in bytes", value, MIN_PART_SIZE, MAX_BUFFERED_PART_SIZE);
            return this;
        }

        /** @throws IllegalArgumentException if the buffer limit is smaller than one part */
        public UploadSettings build() {
            if (maxBufferedBytesPerProcess < partSizeBytes) {
                throw new IllegalArgumentException("process buffer limit " + maxBufferedBytesPerProcess
                        + " bytes is smaller than one part of " + partSizeBytes + " bytes");
            }
            return new UploadSettings(this);
        }
    }
}
