package org.apache.flink.core.fs;

import dev.flinks3.cluster.PluginFileSystems;
import org.apache.flink.configuration.Configuration;

/**
 * it-tests' {@link AbstractS3RecoverableWriterContractTest} (Flink's {@link AbstractRecoverableWriterTest}
 * with the four documented deviations of its {@code testRecover*} methods) on {@code s3://} served by the
 * plugin jar from {@code plugins/}, in a child JVM of {@code FlinkVersionMatrixTest} with one Flink
 * version's jars. In Flink's package because the suite's test methods are package-private.
 */
public class PluginS3RecoverableWriterSuite extends AbstractS3RecoverableWriterContractTest {

    @Override
    protected String bucket() {
        return PluginFileSystems.bucket();
    }

    @Override
    protected Configuration flinkConfiguration() {
        return PluginFileSystems.configuration();
    }

    @Override
    public Path getBasePath() {
        return new Path("s3://" + bucket() + "/" + PluginFileSystems.prefix() + "/recoverable-writer");
    }

    /** As the superclass, with the plugins of {@code FLINK_PLUGINS_DIR}: the class path has no S3 filesystem. */
    @Override
    public FileSystem initializeFileSystem() throws Exception {
        PluginFileSystems.initialize();
        return getBasePath().getFileSystem();
    }
}
