package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnknownKeysTest {

    @Test
    void everyKeyAndFallbackSpellingOfEveryOptionIsKnown() {
        List<String> all = new ArrayList<>(UnknownKeys.knownKeys(S3ConfigOptions.all()));

        assertThat(all)
                .contains(
                        "s3.upload.min.part.size",
                        "fs.s3a.multipart.size",
                        "presto.s3.max-connections",
                        "s3a.connection.maximum",
                        "s3.path.style.access",
                        "fs.s3.aws.credentials.provider");
        assertThat(UnknownKeys.unknown(all)).isEmpty();
    }

    @Test
    void keysFlinkReadsUnderThePluginPrefixesAndKeysOutsideThemAreNotReported() {
        assertThat(UnknownKeys.unknown(List.of(
                        "s3.entropy.key", "s3.entropy.length",
                        "fs.s3a.priority.dev.flinks3.fs.S3AFileSystemFactory", "fs.s3a.limit.total",
                        "fs.s3.priority.org.apache.flink.fs.s3hadoop.S3FileSystemFactory", "fs.s3.limit.input",
                        "state.checkpoints.dir", "execution.checkpointing.interval")))
                .isEmpty();
    }

    @Test
    void typosAndKeysNoOptionReadsAreReportedSorted() {
        assertThat(UnknownKeys.unknown(List.of(
                        "s3.upload.min-part-size",
                        "fs.s3a.multipart.sizee",
                        "presto.s3.staging-directory",
                        "s3a.fast.upload.buffer",
                        "s3.endpoint")))
                .containsExactly(
                        "fs.s3a.multipart.sizee",
                        "presto.s3.staging-directory",
                        "s3.upload.min-part-size",
                        "s3a.fast.upload.buffer");
    }
}
