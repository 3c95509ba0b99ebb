package dev.flinks3.writer;

/**
 * The other S3 plugins whose {@code FileSink} state this writer reads, resumes and commits, so a job can
 * move to this plugin from a savepoint without draining first. Each wrote one serialized form (version 1 of
 * its serializer), in which the target is a key of the filesystem's bucket.
 */
public enum ForeignWriter {

    /**
     * Flink's {@code flink-s3-fs-hadoop} (the writer of {@code flink-s3-fs-base}): {@code S3RecoverableSerializer}
     * version 1, little-endian, opened by the magic number {@code 0x98761432}. Its incomplete-part object sits
     * beside the target as {@code _<name>_tmp_<uuid>}.
     */
    FLINK_S3_FS_HADOOP(
            1,
            "flink-s3-fs-hadoop",
            "S3RecoverableSerializer",
            "Its parts were removed after the savepoint (a lifecycle rule for incomplete multipart uploads, or by"
                    + " hand): the records of that file in progress are lost. Restore from a savepoint taken with"
                    + " 'flink stop --drain' on flink-s3-fs-hadoop, which leaves no file in progress"),

    /**
     * Flink 2.3's {@code flink-s3-fs-native}: {@code NativeS3RecoverableSerializer} version 1, Java data output
     * with modified UTF-8 strings, no magic number. Its incomplete-part object is {@code
     * <key>/.incomplete/<upload id>/<uuid>}.
     */
    FLINK_S3_FS_NATIVE(
            2,
            "flink-s3-fs-native",
            "NativeS3RecoverableSerializer",
            "flink-s3-fs-native 2.3.0 aborts the upload of a file in progress when its job is cancelled, fails or"
                    + " stops with a savepoint without --drain, so no plugin can resume that file from the savepoint"
                    + " (flink-s3-fs-native neither): its records are lost. Restore from a savepoint taken with"
                    + " 'flink stop --drain' on flink-s3-fs-native, which leaves no file in progress");

    private final int code;
    private final String plugin;
    private final String serializer;
    private final String lostUploadAdvice;

    ForeignWriter(int code, String plugin, String serializer, String lostUploadAdvice) {
        this.code = code;
        this.plugin = plugin;
        this.serializer = serializer;
        this.lostUploadAdvice = lostUploadAdvice;
    }

    /**
     * What it means and what to do when the multipart upload of a file this plugin left in progress is gone or
     * lacks its parts on resume: why it may be gone and which savepoint to restore instead.
     */
    String lostUploadAdvice() {
        return lostUploadAdvice;
    }

    /** The plugin's artifact name, as users know it. */
    public String plugin() {
        return plugin;
    }

    /** The plugin's serializer class, as it appears in its source. */
    String serializer() {
        return serializer;
    }

    /** This writer's number in the serialized form of a {@link ForeignRecoverable}. */
    int code() {
        return code;
    }

    static ForeignWriter ofCode(int code) {
        for (ForeignWriter writer : values()) {
            if (writer.code == code) {
                return writer;
            }
        }
        return null;
    }
}
