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
    FLINK_S3_FS_HADOOP(1, "flink-s3-fs-hadoop", "S3RecoverableSerializer"),

    /**
     * Flink 2.3's {@code flink-s3-fs-native}: {@code NativeS3RecoverableSerializer} version 1, Java data output
     * with modified UTF-8 strings, no magic number. Its incomplete-part object is {@code
     * <key>/.incomplete/<upload id>/<uuid>}.
     */
    FLINK_S3_FS_NATIVE(2, "flink-s3-fs-native", "NativeS3RecoverableSerializer");

    private final int code;
    private final String plugin;
    private final String serializer;

    ForeignWriter(int code, String plugin, String serializer) {
        this.code = code;
        this.plugin = plugin;
        this.serializer = serializer;
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
