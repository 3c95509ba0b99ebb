package dev.flinks3.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.flinks3.transfer.CompletedPart;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.RecoverableWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The state other plugins' writers put into a FileSink's checkpoints and savepoints, written by their real
 * 2.3.0 serializers ({@link RivalSerializers}), is recognised by content, whatever version number it shares
 * with this plugin's own forms, and carried on unchanged when this plugin serializes it again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ForeignRecoverableFormatsTest {

    private static final Map<Integer, String> PARTS = parts();

    @Test
    void flinkS3FsHadoopsResumableIsReadWithItsIncompletePart() throws Exception {
        try (RivalSerializers hadoop = RivalSerializers.hadoop()) {
            byte[] bytes = hadoop.serialize(
                    "out/part-0-0", "upload-1", PARTS, 10_485_760, "out/_part-0-0_tmp_0aa1f7f2-9b0c", 1234);

            ForeignRecoverable read =
                    (ForeignRecoverable) S3ResumeRecoverableSerializer.INSTANCE.deserialize(hadoop.version(), bytes);

            assertThat(hadoop.version()).isEqualTo(1);
            assertThat(read.writer()).isEqualTo(ForeignWriter.FLINK_S3_FS_HADOOP);
            assertThat(read.key()).isEqualTo("out/part-0-0");
            assertThat(read.uploadId()).isEqualTo("upload-1");
            assertThat(read.parts())
                    .extracting(CompletedPart::partNumber, CompletedPart::eTag)
                    .containsExactly(tuple(1, "\"etag-1\""), tuple(2, "\"etag-2\""));
            assertThat(read.bytesInParts()).isEqualTo(10_485_760);
            assertThat(read.incompleteKey()).isEqualTo("out/_part-0-0_tmp_0aa1f7f2-9b0c");
            assertThat(read.incompleteBytes()).isEqualTo(1234);
            assertThat(read.length()).isEqualTo(10_485_760 + 1234);
            assertCarriedOnUnchanged(read, bytes);
        }
    }

    @Test
    void flinkS3FsHadoopsCommittableIsReadWithoutIncompletePart() throws Exception {
        try (RivalSerializers hadoop = RivalSerializers.hadoop()) {
            byte[] bytes = hadoop.serialize("out/part-0-0", "upload-1", PARTS, 10_485_860, null, -1);

            ForeignRecoverable read =
                    (ForeignRecoverable) S3CommitRecoverableSerializer.INSTANCE.deserialize(hadoop.version(), bytes);

            assertThat(read.writer()).isEqualTo(ForeignWriter.FLINK_S3_FS_HADOOP);
            assertThat(read.incompleteKey()).isNull();
            assertThat(read.length()).isEqualTo(10_485_860);
            byte[] again = S3CommitRecoverableSerializer.INSTANCE.serialize(read);
            assertThat(S3CommitRecoverableSerializer.INSTANCE.deserialize(3, again))
                    .isEqualTo(read);
        }
    }

    @Test
    void flinkS3FsNativesResumableAndCommittableAreRead() throws Exception {
        try (RivalSerializers nativePlugin = RivalSerializers.nativePlugin()) {
            byte[] resumable = nativePlugin.serialize(
                    "out/part-0-0", "upload-2", PARTS, 10_485_760, "out/part-0-0/.incomplete/upload-2/9f3c", 77);
            byte[] committable = nativePlugin.serialize("out/part-0-0", "upload-2", PARTS, 10_485_837, null, -1);

            ForeignRecoverable resume = (ForeignRecoverable)
                    S3ResumeRecoverableSerializer.INSTANCE.deserialize(nativePlugin.version(), resumable);
            ForeignRecoverable commit = (ForeignRecoverable)
                    S3CommitRecoverableSerializer.INSTANCE.deserialize(nativePlugin.version(), committable);

            assertThat(nativePlugin.version()).isEqualTo(1);
            assertThat(resume.writer()).isEqualTo(ForeignWriter.FLINK_S3_FS_NATIVE);
            assertThat(resume.key()).isEqualTo("out/part-0-0");
            assertThat(resume.parts()).extracting(CompletedPart::eTag).containsExactly("\"etag-1\"", "\"etag-2\"");
            assertThat(resume.incompleteKey()).isEqualTo("out/part-0-0/.incomplete/upload-2/9f3c");
            assertThat(resume.incompleteBytes()).isEqualTo(77);
            assertThat(commit.incompleteKey()).isNull();
            assertThat(commit.length()).isEqualTo(10_485_837);
            assertCarriedOnUnchanged(resume, resumable);
        }
    }

    /** A key that spells one of this plugin's schemes cannot pass native's state off as this plugin's version 1. */
    @Test
    void nativeStateWhoseKeyLooksLikeOurSchemeIsStillNatives() throws Exception {
        try (RivalSerializers nativePlugin = RivalSerializers.nativePlugin()) {
            byte[] bytes = nativePlugin.serialize("s3", "upload-3", Map.of(), 0, "s3/.incomplete/upload-3/1", 5);

            assertThat(S3ResumeRecoverableSerializer.INSTANCE.deserialize(1, bytes))
                    .isInstanceOfSatisfying(
                            ForeignRecoverable.class,
                            read -> assertThat(read.writer()).isEqualTo(ForeignWriter.FLINK_S3_FS_NATIVE));
        }
    }

    @Test
    void bytesOfNoKnownFormFailNamingTheFormsAndADrainedStop() {
        byte[] random = new byte[64];
        new Random(7).nextBytes(random);

        for (int version : new int[] {1, 2, 3, 7}) {
            assertThatThrownBy(() -> S3ResumeRecoverableSerializer.INSTANCE.deserialize(version, random))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("serializer version " + version)
                    .hasMessageContaining("flink-s3-fs-hadoop")
                    .hasMessageContaining("flink-s3-fs-native")
                    .hasMessageContaining("flink stop --drain");
        }
    }

    @Test
    void corruptHadoopStateFailsNamingHadoop() {
        byte[] bytes = ByteBuffer.allocate(12)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .putInt(ForeignFormats.HADOOP_MAGIC)
                .putInt(100)
                .array();

        assertThatThrownBy(() -> S3CommitRecoverableSerializer.INSTANCE.deserialize(1, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("written by flink-s3-fs-hadoop")
                .hasMessageContaining("flink stop --drain");
    }

    @Test
    void stateOfANewerFlinks3FailsNamingTheVersions() {
        byte[] bytes = ByteBuffer.allocate(8).putInt(RecoverableFormat.MAGIC).array();

        assertThatThrownBy(() -> S3ResumeRecoverableSerializer.INSTANCE.deserialize(4, bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("newer version of flinks3")
                .hasMessageContaining("versions 1 to 3");
    }

    /**
     * The way back is closed for this plugin's FileSink state: the other plugins' serializers refuse it (the
     * migration page's rollback section says so, and what to do).
     */
    @Test
    void theOtherPluginsRefuseThisPluginsState() throws Exception {
        S3CommitRecoverable ours = new S3CommitRecoverable(
                dev.flinks3.transfer.S3Location.of("s3", "bucket", "out/part-0-0"), null, java.util.List.of(), 0);
        byte[] bytes = S3CommitRecoverableSerializer.INSTANCE.serialize(ours);
        int version = S3CommitRecoverableSerializer.INSTANCE.getVersion();

        try (RivalSerializers hadoop = RivalSerializers.hadoop();
                RivalSerializers nativePlugin = RivalSerializers.nativePlugin()) {
            assertThatThrownBy(() -> hadoop.deserialize(version, bytes))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("Unrecognized version or corrupt state: 3");
            assertThatThrownBy(() -> nativePlugin.deserialize(version, bytes))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("3");
        }
    }

    private static void assertCarriedOnUnchanged(ForeignRecoverable read, byte[] original) throws IOException {
        byte[] again = S3ResumeRecoverableSerializer.INSTANCE.serialize(read);
        RecoverableWriter.ResumeRecoverable reread = S3ResumeRecoverableSerializer.INSTANCE.deserialize(3, again);
        assertThat(reread).isEqualTo(read);
        assertThat(((ForeignRecoverable) reread).serialized()).isEqualTo(original);
    }

    private static Map<Integer, String> parts() {
        Map<Integer, String> parts = new LinkedHashMap<>();
        parts.put(1, "\"etag-1\"");
        parts.put(2, "\"etag-2\"");
        return parts;
    }
}
