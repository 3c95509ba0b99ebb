package dev.flinks3.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.S3Location;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Bytes written by serializer version 1, checked into the repository: they must stay readable by every
 * later build (Flink restores checkpoints written by older versions), and version 1 must keep writing
 * exactly them.
 */
class RecoverableSerializerGoldenBytesTest {

    private static final S3Location TARGET = S3Location.of("s3", "bucket", "dir/part-0-0 ä+%");
    private static final String STREAM = "0123456789abcdef0123456789abcdef";
    private static final List<CompletedPart> PARTS = List.of(
            new CompletedPart(1, "\"etag-1\"", 5_242_880), new CompletedPart(2, "\"etag-2\"", 5_242_880));

    private static final S3ResumeRecoverable RESUME = new S3ResumeRecoverable(TARGET, STREAM, "upload-1", PARTS,
            "dir/.part-0-0 ä+%.s3-tail." + STREAM + ".10485860.1a2b3c4d", 100, 10_485_860);
    private static final S3ResumeRecoverable RESUME_TAIL_ONLY =
            new S3ResumeRecoverable(TARGET, STREAM, null, List.of(), "dir/.tail", 7, 7);
    private static final S3CommitRecoverable COMMIT = new S3CommitRecoverable(TARGET, "upload-1", PARTS, 10_485_860);
    private static final S3CommitRecoverable COMMIT_EMPTY = new S3CommitRecoverable(TARGET, null, List.of(), 0);

    @Test
    void resumeRecoverablesOfVersion1() throws IOException {
        S3ResumeRecoverableSerializer serializer = S3ResumeRecoverableSerializer.INSTANCE;
        assertThat(serializer.getVersion()).isEqualTo(1);

        assertThat(hex(serializer.serialize(RESUME))).isEqualTo(golden("resume-v1.hex"));
        assertThat(serializer.deserialize(1, bytes(golden("resume-v1.hex")))).isEqualTo(RESUME);
        assertThat(hex(serializer.serialize(RESUME_TAIL_ONLY))).isEqualTo(golden("resume-tail-only-v1.hex"));
        assertThat(serializer.deserialize(1, bytes(golden("resume-tail-only-v1.hex")))).isEqualTo(RESUME_TAIL_ONLY);
    }

    @Test
    void commitRecoverablesOfVersion1() throws IOException {
        S3CommitRecoverableSerializer serializer = S3CommitRecoverableSerializer.INSTANCE;
        assertThat(serializer.getVersion()).isEqualTo(1);

        assertThat(hex(serializer.serialize(COMMIT))).isEqualTo(golden("commit-v1.hex"));
        assertThat(serializer.deserialize(1, bytes(golden("commit-v1.hex")))).isEqualTo(COMMIT);
        assertThat(hex(serializer.serialize(COMMIT_EMPTY))).isEqualTo(golden("commit-empty-v1.hex"));
        assertThat(serializer.deserialize(1, bytes(golden("commit-empty-v1.hex")))).isEqualTo(COMMIT_EMPTY);
    }

    @Test
    void unknownVersionsAndCorruptBytesAreIoErrors() {
        assertThatThrownBy(() -> S3ResumeRecoverableSerializer.INSTANCE.deserialize(2, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 2");
        assertThatThrownBy(() -> S3CommitRecoverableSerializer.INSTANCE.deserialize(1, new byte[] {0, 2, 's'}))
                .isInstanceOf(IOException.class);
    }

    private static String golden(String name) throws IOException {
        try (InputStream in = RecoverableSerializerGoldenBytesTest.class.getResourceAsStream("/golden/" + name)) {
            assertThat(in).as("golden file %s", name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim();
        }
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    private static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex);
    }
}
