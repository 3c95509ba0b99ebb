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
 * Bytes written by every serializer version, checked into the repository: they must stay readable by
 * every later build (Flink restores checkpoints written by older versions), and the current version
 * must keep writing exactly its own golden bytes.
 */
class RecoverableSerializerGoldenBytesTest {

    private static final S3Location TARGET = S3Location.of("s3", "bucket", "dir/part-0-0 ä+%");
    private static final String STREAM = "0123456789abcdef0123456789abcdef";
    private static final List<CompletedPart> PARTS =
            List.of(new CompletedPart(1, "\"etag-1\"", 5_242_880), new CompletedPart(2, "\"etag-2\"", 5_242_880));

    private static final S3ResumeRecoverable RESUME = new S3ResumeRecoverable(
            TARGET,
            STREAM,
            "upload-1",
            PARTS,
            "dir/.part-0-0 ä+%.s3-tail." + STREAM + ".10485860.1a2b3c4d",
            100,
            10_485_860);
    private static final S3ResumeRecoverable RESUME_TAIL_ONLY =
            new S3ResumeRecoverable(TARGET, STREAM, null, List.of(), "dir/.tail", 7, 7);
    private static final S3CommitRecoverable COMMIT = new S3CommitRecoverable(TARGET, "upload-1", PARTS, 10_485_860);
    private static final S3CommitRecoverable COMMIT_EMPTY = new S3CommitRecoverable(TARGET, null, List.of(), 0);

    /** Version 2 adds each part's CRC32C; a part may lack one (uploaded with checksums off). */
    private static final List<CompletedPart> PARTS_WITH_CHECKSUMS = List.of(
            new CompletedPart(1, "\"etag-1\"", 5_242_880, "AAAAAA=="),
            new CompletedPart(2, "\"etag-2\"", 5_242_880, null));

    private static final S3ResumeRecoverable RESUME_V2 = new S3ResumeRecoverable(
            TARGET,
            STREAM,
            "upload-1",
            PARTS_WITH_CHECKSUMS,
            "dir/.part-0-0 ä+%.s3-tail." + STREAM + ".10485860.1a2b3c4d",
            100,
            10_485_860);
    private static final S3CommitRecoverable COMMIT_V2 =
            new S3CommitRecoverable(TARGET, "upload-1", PARTS_WITH_CHECKSUMS, 10_485_860);

    @Test
    void resumeRecoverablesOfVersion1StayReadable() throws IOException {
        S3ResumeRecoverableSerializer serializer = S3ResumeRecoverableSerializer.INSTANCE;
        assertThat(serializer.deserialize(1, bytes(golden("resume-v1.hex")))).isEqualTo(RESUME);
        assertThat(serializer.deserialize(1, bytes(golden("resume-tail-only-v1.hex"))))
                .isEqualTo(RESUME_TAIL_ONLY);
    }

    @Test
    void commitRecoverablesOfVersion1StayReadable() throws IOException {
        S3CommitRecoverableSerializer serializer = S3CommitRecoverableSerializer.INSTANCE;
        assertThat(serializer.deserialize(1, bytes(golden("commit-v1.hex")))).isEqualTo(COMMIT);
        assertThat(serializer.deserialize(1, bytes(golden("commit-empty-v1.hex"))))
                .isEqualTo(COMMIT_EMPTY);
    }

    @Test
    void resumeRecoverablesOfVersion2KeepPartChecksums() throws IOException {
        S3ResumeRecoverableSerializer serializer = S3ResumeRecoverableSerializer.INSTANCE;
        assertThat(serializer.getVersion()).isEqualTo(2);

        assertThat(hex(serializer.serialize(RESUME_V2))).isEqualTo(golden("resume-v2.hex"));
        assertThat(serializer.deserialize(2, bytes(golden("resume-v2.hex")))).isEqualTo(RESUME_V2);
        assertThat(hex(serializer.serialize(RESUME_TAIL_ONLY))).isEqualTo(golden("resume-tail-only-v2.hex"));
        assertThat(serializer.deserialize(2, bytes(golden("resume-tail-only-v2.hex"))))
                .isEqualTo(RESUME_TAIL_ONLY);
    }

    @Test
    void commitRecoverablesOfVersion2KeepPartChecksums() throws IOException {
        S3CommitRecoverableSerializer serializer = S3CommitRecoverableSerializer.INSTANCE;
        assertThat(serializer.getVersion()).isEqualTo(2);

        assertThat(hex(serializer.serialize(COMMIT_V2))).isEqualTo(golden("commit-v2.hex"));
        assertThat(serializer.deserialize(2, bytes(golden("commit-v2.hex")))).isEqualTo(COMMIT_V2);
        assertThat(hex(serializer.serialize(COMMIT_EMPTY))).isEqualTo(golden("commit-empty-v2.hex"));
        assertThat(serializer.deserialize(2, bytes(golden("commit-empty-v2.hex"))))
                .isEqualTo(COMMIT_EMPTY);
    }

    @Test
    void unknownVersionsAndCorruptBytesAreIoErrors() {
        assertThatThrownBy(() -> S3ResumeRecoverableSerializer.INSTANCE.deserialize(3, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 3");
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
