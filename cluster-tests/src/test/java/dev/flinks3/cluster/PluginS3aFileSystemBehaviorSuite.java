package dev.flinks3.cluster;

/** {@link PluginS3FileSystemBehaviorSuite} on {@code s3a://}. */
public class PluginS3aFileSystemBehaviorSuite extends PluginS3FileSystemBehaviorSuite {

    @Override
    protected String scheme() {
        return "s3a";
    }
}
