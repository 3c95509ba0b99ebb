package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Which key prefixes {@link AbandonedUploadPurge} purges, from Flink's checkpoint and savepoint directories. */
@Timeout(10)
class AbandonedUploadPurgeTest {

    @Test
    void purgesTheCheckpointAndSavepointDirectoriesOfTheBucketOnly() {
        AbandonedUploadPurge purge = AbandonedUploadPurge.of(
                Map.of(
                        "execution.checkpointing.dir", "s3://state/flink/checkpoints",
                        "execution.checkpointing.savepoint-dir", "s3a://state/flink/savepoints/",
                        "state.checkpoints.dir", "s3://other/old-spelling",
                        "state.savepoints.dir", "hdfs://namenode/savepoints"),
                null);

        assertThat(purge.prefixes("state")).containsExactly("flink/checkpoints/", "flink/savepoints/");
        assertThat(purge.prefixes("other")).containsExactly("old-spelling/");
        assertThat(purge.prefixes("namenode")).isEmpty();
        assertThat(purge.prefixes("sink-bucket")).isEmpty();
    }

    @Test
    void aDirectoryAtTheRootOrWithEntropyInItsFirstFolderIsNotPurged() {
        AbandonedUploadPurge purge = AbandonedUploadPurge.of(
                Map.of(
                        "execution.checkpointing.dir", "s3://a/",
                        "execution.checkpointing.savepoint-dir", "s3://b/_entropy_/savepoints"),
                "_entropy_");

        assertThat(purge.prefixes("a")).isEmpty();
        assertThat(purge.prefixes("b")).isEmpty();
    }

    @Test
    void withEntropyTheFoldersBeforeTheEntropyKeyArePurged() {
        AbandonedUploadPurge purge = AbandonedUploadPurge.of(
                Map.of("execution.checkpointing.dir", "s3://state/checkpoints/_entropy_/job-1"), "_entropy_");

        assertThat(purge.prefixes("state")).containsExactly("checkpoints/");
    }

    @Test
    void noDirectoryNothingToPurgeAndTheAgeIsOffByDefault() {
        assertThat(AbandonedUploadPurge.of(Map.of(), null).prefixes("state")).isEmpty();
        assertThat(S3FileSystemSettings.fromConfiguration(new Configuration()).multipartPurgeAge())
                .isZero();
        assertThat(S3FileSystemSettings.fromConfiguration(
                                Configuration.fromMap(Map.of("s3.multipart.purge.age", "1 d")))
                        .multipartPurgeAge())
                .isEqualTo(Duration.ofDays(1));
    }
}
