package dev.flinks3.fs;

/**
 * Creates the filesystem for {@code s3p://} paths, the scheme of Flink's {@code flink-s3-fs-presto}: the same
 * filesystem, configuration and process runtime as {@link S3FileSystemFactory}, so checkpoints and savepoints
 * whose metadata names {@code s3p://} paths restore after moving from that plugin, and jobs keep their paths.
 */
public class S3PFileSystemFactory extends S3FileSystemFactory {

    @Override
    public String getScheme() {
        return "s3p";
    }
}
