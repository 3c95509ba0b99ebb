package dev.flinks3.fs;

/**
 * Creates the filesystem for {@code s3a://} paths: the same filesystem and configuration as
 * {@link S3FileSystemFactory}, for jobs and checkpoints written with Hadoop's scheme.
 */
public class S3AFileSystemFactory extends S3FileSystemFactory {

    @Override
    public String getScheme() {
        return "s3a";
    }
}
