package dev.flinks3.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.fake.Fault;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import dev.flinks3.transfer.fake.Operation;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.junit.jupiter.api.Test;

class S3RecoverableWriterTest {

    private static final int PART = (int) S3Settings.MIN_PART_SIZE;

    private final InMemoryObjectClient client = new InMemoryObjectClient();
    private final UploadEngine engine = new UploadEngine(client, S3Settings.builder()
            .partSizeBytes(PART)
            .maxPartsInFlightPerStream(4)
            .maxBufferedBytesPerProcess(64L * 1024 * 1024)
            .build());
    private final S3RecoverableWriter writer = new S3RecoverableWriter(client, engine);
    private final Path path = new Path("s3://bucket/out/part-0-0");
    private final S3Location target = S3Location.of("s3", "bucket", "out/part-0-0");

    @Test
    void writtenAndCommittedStreamIsTheObject() throws IOException {
        byte[] data = random(2 * PART + 10, 1);
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(data);
        RecoverableFsDataOutputStream.Committer committer = out.closeForCommit();
        assertThat(client.exists(target)).isFalse();

        committer.commit();
        assertThat(client.bytesOf(target)).isEqualTo(data);
        assertThat(client.keys("bucket")).containsExactly("out/part-0-0");
        assertThat(client.pendingUploads()).isEmpty();
    }

    @Test
    void zeroBytesCommitAsAZeroByteObject() throws IOException {
        writer.open(path).closeForCommit().commit();

        assertThat(client.bytesOf(target)).isEmpty();
        assertThat(client.calls(Operation.CREATE_MULTIPART_UPLOAD)).isZero();
    }

    @Test
    void persistStoresTheTailBesideTheTargetAndRecoverTakesItBack() throws IOException {
        byte[] before = random(2 * PART + 1000, 2);
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(before);
        S3ResumeRecoverable persisted = roundTrip(out.persist());

        assertThat(persisted.parts()).hasSize(2);
        assertThat(persisted.tailBytes()).isEqualTo(1000);
        assertThat(persisted.length()).isEqualTo(before.length);
        String tailName = persisted.tail().key().substring("out/".length());
        assertThat(TailObjects.isTailObjectName(tailName)).isTrue();
        assertThat(client.keys("bucket")).noneMatch(key -> key.startsWith("out/part-0-0/"));
        out.write(random(PART, 3)); // lost: written after the checkpoint
        out.close();
        assertThat(client.pendingUploads()).hasSize(1);

        RecoverableFsDataOutputStream recovered = writer.recover(persisted);
        assertThat(recovered.getPos()).isEqualTo(before.length);
        byte[] after = random(PART + 7, 4);
        recovered.write(after);
        recovered.closeForCommit().commit();

        assertThat(client.bytesOf(target)).isEqualTo(concat(before, after));
        assertThat(client.calls(Operation.UPLOAD_PART)).isEqualTo(2 + 1 + 2);
    }

    @Test
    void persistOfExactlyOneFullPartLeavesNoTail() throws IOException {
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(random(PART, 5));

        S3ResumeRecoverable persisted = (S3ResumeRecoverable) out.persist();
        assertThat(persisted.tail()).isNull();
        assertThat(persisted.parts()).hasSize(1);
        assertThat(client.keys("bucket")).isEmpty();
        out.close();
    }

    @Test
    void recoveringAnOlderStateInvalidatesLaterOnes() throws IOException {
        byte[] first = "first.".getBytes();
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(first);
        RecoverableWriter.ResumeRecoverable older = roundTrip(out.persist());
        out.write("second.".getBytes());
        RecoverableWriter.ResumeRecoverable newer = roundTrip(out.persist());
        out.write("lost.".getBytes());
        out.close();

        RecoverableFsDataOutputStream recovered = writer.recover(older);
        assertThatThrownBy(() -> writer.recover(newer)).isInstanceOf(IOException.class);
        recovered.write("third.".getBytes());
        recovered.closeForCommit().commit();

        assertThat(new String(client.bytesOf(target))).isEqualTo("first.third.");
    }

    @Test
    void cleanupDeletesOnlyTheResumablesOwnTail() throws IOException {
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write("a".getBytes());
        S3ResumeRecoverable older = (S3ResumeRecoverable) out.persist();
        S3ResumeRecoverable sameBytes = (S3ResumeRecoverable) out.persist();
        out.write("b".getBytes());
        S3ResumeRecoverable newer = (S3ResumeRecoverable) out.persist();
        out.close();

        assertThat(writer.requiresCleanupOfRecoverableState()).isTrue();
        assertThat(writer.cleanupRecoverableState(older)).isTrue();
        assertThat(client.exists(older.tail())).isFalse();
        assertThat(client.exists(sameBytes.tail())).isTrue();
        assertThat(client.exists(newer.tail())).isTrue();

        writer.recover(newer).closeForCommit().commit();
        assertThat(new String(client.bytesOf(target))).isEqualTo("ab");
    }

    @Test
    void closeWithoutPersistAbortsTheUpload() throws IOException {
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(random(2 * PART, 6));
        out.close();

        assertThat(client.calls(Operation.ABORT_MULTIPART_UPLOAD)).isEqualTo(1);
        assertThat(client.pendingUploads()).isEmpty();
    }

    @Test
    void failedPartFailsPersistAndCloseLeavesNoUpload() throws IOException {
        IOException cause = new IOException("part lost");
        client.inject(Fault.on(Operation.UPLOAD_PART).atCall(2).failingWith(cause));
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(random(2 * PART + 1, 7));

        assertThatThrownBy(out::persist).isInstanceOf(IOException.class).hasCause(cause);
        out.close();
        assertThat(client.pendingUploads()).isEmpty();
        assertThat(client.keys("bucket")).isEmpty();
    }

    @Test
    void writingAfterCloseForCommitFails() throws IOException {
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(1);
        out.closeForCommit();

        assertThatThrownBy(() -> out.write(2)).isInstanceOf(IOException.class);
    }

    @Test
    void lostCompleteResponseStillCommits() throws IOException {
        client.inject(Fault.on(Operation.COMPLETE_MULTIPART_UPLOAD).afterEffect()
                .failingWith(new IOException("connection reset")));
        byte[] data = random(PART + 1, 8);
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(data);

        out.closeForCommit().commit();
        assertThat(client.bytesOf(target)).isEqualTo(data);
    }

    @Test
    void commitAfterRecoveryAcceptsTheObjectAnEarlierCommitCompleted() throws IOException {
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(random(PART + 1, 9));
        RecoverableFsDataOutputStream.Committer committer = out.closeForCommit();
        committer.commit();

        writer.recoverForCommit(roundTrip(committer.getRecoverable())).commitAfterRecovery();
        assertThat(client.bytesOf(target)).hasSize(PART + 1);
    }

    @Test
    void commitAfterRecoveryRefusesAStaleObjectOfAnotherLength() throws IOException {
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(random(PART + 1, 10));
        S3CommitRecoverable recoverable = (S3CommitRecoverable) out.closeForCommit().getRecoverable();
        client.abortMultipartUpload(target, recoverable.uploadId()).join();
        client.store(target, new byte[3]);

        assertThatThrownBy(() -> writer.recoverForCommit(recoverable).commitAfterRecovery())
                .isInstanceOf(IOException.class)
                .hasMessageContaining(target.toString())
                .hasMessageContaining("3 bytes")
                .hasMessageContaining((PART + 1) + " bytes");
    }

    @Test
    void commitAfterRecoveryFailsWhenTheUploadWasAbortedAndNothingIsThere() throws IOException {
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(random(PART + 1, 11));
        S3CommitRecoverable recoverable = (S3CommitRecoverable) out.closeForCommit().getRecoverable();
        client.abortMultipartUpload(target, recoverable.uploadId()).join();

        assertThatThrownBy(() -> writer.recoverForCommit(recoverable).commitAfterRecovery())
                .isInstanceOf(S3RequestException.class)
                .hasMessageContaining("NoSuchUpload");
    }

    @Test
    void recoverAfterCommitFails() throws IOException {
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write("x".getBytes());
        RecoverableWriter.ResumeRecoverable persisted = out.persist();
        out.closeForCommit().commit();

        assertThatThrownBy(() -> writer.recover(persisted))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("already exists");
    }

    @Test
    void recoverFailsWhenTheUploadWasAbortedOutOfBand() throws IOException {
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(random(PART + 1, 12));
        S3ResumeRecoverable persisted = (S3ResumeRecoverable) out.persist();
        out.close();
        client.abortMultipartUpload(target, persisted.uploadId()).join();

        assertThatThrownBy(() -> writer.recover(persisted))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("no longer exists");
    }

    @Test
    void foreignRecoverablesAreRejected() {
        RecoverableWriter.ResumeRecoverable foreign = new RecoverableWriter.ResumeRecoverable() {};

        assertThatThrownBy(() -> writer.recover(foreign)).isInstanceOf(IllegalArgumentException.class);
    }

    private S3ResumeRecoverable roundTrip(RecoverableWriter.ResumeRecoverable recoverable) throws IOException {
        var serializer = writer.getResumeRecoverableSerializer();
        return (S3ResumeRecoverable) serializer.deserialize(serializer.getVersion(), serializer.serialize(recoverable));
    }

    private S3CommitRecoverable roundTrip(RecoverableWriter.CommitRecoverable recoverable) throws IOException {
        var serializer = writer.getCommitRecoverableSerializer();
        return (S3CommitRecoverable) serializer.deserialize(serializer.getVersion(), serializer.serialize(recoverable));
    }

    private static byte[] random(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
