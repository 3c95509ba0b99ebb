package dev.flinks3.writer;

import static dev.flinks3.writer.FakeS3Writer.PART;
import static dev.flinks3.writer.FakeS3Writer.concat;
import static dev.flinks3.writer.FakeS3Writer.random;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.UploadChecksum;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The other plugins' pending and in-progress files, as their real serializers record them, are committed and
 * resumed by this writer: their upload continued or completed, their incomplete part read back and deleted
 * once the target is committed. Resumed uploads keep the checksum they were created with.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ForeignRecoveryTest {

    private final FakeS3Writer fake = new FakeS3Writer();
    private final InMemoryObjectClient client = fake.client;
    private final S3RecoverableWriter writer = fake.writer;
    private final S3Location target = fake.target;

    @Test
    void hadoopsInProgressFileIsResumedWithItsIncompletePartAndCommitted() throws Exception {
        byte[] part = random(PART, 1);
        byte[] incomplete = random(1000, 2);
        String uploadId = upload(part);
        S3Location incompleteObject = target.withKey("out/_part-0-0_tmp_6f1d9a2e-0c1b-4f7e-8a4e-2b1d9c3e5f60");
        client.store(incompleteObject, incomplete);
        byte[] state;
        try (RivalSerializers hadoop = RivalSerializers.hadoop()) {
            state = hadoop.serialize(
                    target.key(), uploadId, eTags(uploadId), PART, incompleteObject.key(), incomplete.length);
        }

        RecoverableFsDataOutputStream out = writer.recover(readResumable(state));
        assertThat(out.getPos()).isEqualTo(PART + 1000);
        byte[] more = random(PART + 10, 3);
        out.write(more);
        RecoverableWriter.CommitRecoverable committable =
                roundTrip(out.closeForCommit().getRecoverable());
        writer.recoverForCommit(committable).commit();

        assertThat(client.bytesOf(target)).isEqualTo(concat(concat(part, incomplete), more));
        assertThat(client.exists(incompleteObject))
                .as("hadoop's incomplete part, deleted at the commit")
                .isFalse();
        assertThat(client.pendingUploads()).isEmpty();
        assertThat(client.partChecksums(uploadId))
                .as("parts without a checksum, as hadoop's")
                .containsValue(UploadChecksum.NONE);
    }

    @Test
    void nativesPendingFileIsCommittedAndACommitAfterRecoveryAcceptsItAgain() throws Exception {
        byte[] first = random(PART, 4);
        byte[] last = random(100, 5);
        String uploadId = upload(first, last);
        byte[] state;
        try (RivalSerializers nativePlugin = RivalSerializers.nativePlugin()) {
            state = nativePlugin.serialize(target.key(), uploadId, eTags(uploadId), PART + 100, null, -1);
        }
        RecoverableWriter.CommitRecoverable committable =
                writer.getCommitRecoverableSerializer().deserialize(1, state);

        writer.recoverForCommit(committable).commitAfterRecovery();
        writer.recoverForCommit(committable).commitAfterRecovery();

        assertThat(client.bytesOf(target)).isEqualTo(concat(first, last));
        assertThat(client.pendingUploads()).isEmpty();
    }

    @Test
    void aPendingFileWhoseObjectHasAnotherLengthFailsNamingBoth() throws Exception {
        String uploadId = upload(random(PART, 6), random(100, 7));
        byte[] state;
        try (RivalSerializers hadoop = RivalSerializers.hadoop()) {
            state = hadoop.serialize(target.key(), uploadId, eTags(uploadId), PART + 100, null, -1);
        }
        Futures.await(client.abortMultipartUpload(target, uploadId), "AbortMultipartUpload", target);
        client.store(target, random(10, 8));
        RecoverableWriter.CommitRecoverable committable =
                writer.getCommitRecoverableSerializer().deserialize(1, state);

        assertThatThrownBy(() -> writer.recoverForCommit(committable).commitAfterRecovery())
                .isInstanceOf(IOException.class)
                .hasMessageContaining("10 bytes")
                .hasMessageContaining((PART + 100) + " bytes");
    }

    @Test
    void aResumableWhosePartIsGoneFailsNamingThePlugin() throws Exception {
        String uploadId = upload(random(PART, 9));
        byte[] state;
        try (RivalSerializers nativePlugin = RivalSerializers.nativePlugin()) {
            state = nativePlugin.serialize(target.key(), uploadId, Map.of(1, "\"0000\""), PART, null, -1);
        }

        assertThatThrownBy(() -> writer.recover(readResumable(state)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("part 1")
                .hasMessageContaining("flink-s3-fs-native")
                .hasMessageContaining("aborts the upload of a file in progress")
                .hasMessageContaining("flink stop --drain");
    }

    @Test
    void cleanupOfAForeignResumableDeletesItsIncompletePart() throws Exception {
        String uploadId = upload(random(PART, 10));
        S3Location incompleteObject = target.withKey("out/part-0-0/.incomplete/" + uploadId + "/1");
        client.store(incompleteObject, random(10, 11));
        byte[] state;
        try (RivalSerializers nativePlugin = RivalSerializers.nativePlugin()) {
            state = nativePlugin.serialize(target.key(), uploadId, eTags(uploadId), PART, incompleteObject.key(), 10);
        }

        assertThat(writer.cleanupRecoverableState(readResumable(state))).isTrue();
        assertThat(client.exists(incompleteObject)).isFalse();
    }

    /** A resumed upload's new parts carry the checksum it was created with, not the client's current choice. */
    @Test
    void aResumedUploadsPartsCarryTheRecordedChecksum() throws Exception {
        for (UploadChecksum recorded : List.of(UploadChecksum.CRC32C, UploadChecksum.NONE)) {
            FakeS3Writer fresh = new FakeS3Writer();
            byte[] part = random(PART, 12);
            String uploadId = Futures.await(
                    fresh.client.createMultipartUpload(fresh.target), "CreateMultipartUpload", fresh.target);
            CompletedPart uploaded = Futures.await(
                    fresh.client.uploadPart(fresh.target, uploadId, 1, ByteBuffer.wrap(part)),
                    "UploadPart",
                    fresh.target);
            S3ResumeRecoverable state = new S3ResumeRecoverable(
                    fresh.target,
                    TailObjects.newStreamId(),
                    uploadId,
                    recorded,
                    List.of(uploaded),
                    null,
                    0,
                    PART,
                    null);

            RecoverableFsDataOutputStream out = fresh.writer.recover(fresh.roundTrip(state));
            out.write(random(PART + 1, 13));
            S3ResumeRecoverable next = fresh.roundTrip(out.persist());
            out.closeForCommit().commit();

            assertThat(fresh.client.partChecksums(uploadId)).as("%s", recorded).containsOnlyKeys(2, 3);
            assertThat(fresh.client.partChecksums(uploadId).values()).containsOnly(recorded);
            assertThat(next.checksum()).isEqualTo(recorded);
        }
    }

    /** Version 1 recorded no checksum: the listing of the upload's parts tells it. */
    @Test
    void aResumableWithoutARecordedChecksumFollowsTheListedParts() throws Exception {
        String uploadId = upload(random(PART, 14));
        List<CompletedPart> listed = client.listParts(target, uploadId);
        S3ResumeRecoverable state =
                new S3ResumeRecoverable(target, TailObjects.newStreamId(), uploadId, listed, null, 0, PART);

        RecoverableFsDataOutputStream out = writer.recover(state);
        out.write(random(PART + 1, 15));
        out.closeForCommit().commit();

        assertThat(client.partChecksums(uploadId).values()).containsOnly(UploadChecksum.NONE);
    }

    private String upload(byte[]... parts) throws IOException {
        String uploadId = Futures.await(client.createMultipartUpload(target), "CreateMultipartUpload", target);
        for (int i = 0; i < parts.length; i++) {
            Futures.await(client.uploadPart(target, uploadId, i + 1, ByteBuffer.wrap(parts[i])), "UploadPart", target);
        }
        return uploadId;
    }

    private Map<Integer, String> eTags(String uploadId) throws IOException {
        Map<Integer, String> eTags = new LinkedHashMap<>();
        for (CompletedPart part : client.listParts(target, uploadId)) {
            eTags.put(part.partNumber(), part.eTag());
        }
        return eTags;
    }

    private RecoverableWriter.ResumeRecoverable readResumable(byte[] state) throws IOException {
        return writer.getResumeRecoverableSerializer().deserialize(1, state);
    }

    private RecoverableWriter.CommitRecoverable roundTrip(RecoverableWriter.CommitRecoverable recoverable)
            throws IOException {
        return fake.roundTrip(recoverable);
    }
}
