package dev.flinks3.writer;

import static dev.flinks3.writer.FakeS3Writer.PART;
import static dev.flinks3.writer.FakeS3Writer.concat;
import static dev.flinks3.writer.FakeS3Writer.random;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.fake.Fault;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import dev.flinks3.transfer.fake.Operation;
import java.io.IOException;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.junit.jupiter.api.Test;

class S3RecoverableWriterTest {

    private final FakeS3Writer fake = new FakeS3Writer();
    private final InMemoryObjectClient client = fake.client;
    private final S3RecoverableWriter writer = fake.writer;
    private final Path path = fake.path;
    private final S3Location target = fake.target;

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
    void commitDeletesTheTailsFlinkNeverCleansUp() throws IOException {
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write("restored.".getBytes());
        RecoverableWriter.ResumeRecoverable restored = roundTrip(out.persist());
        out.persist(); // a later checkpoint at the same position, which never completed
        out.close();
        assertThat(fake.tailKeys()).hasSize(2);

        RecoverableFsDataOutputStream recovered = writer.recover(restored);
        recovered.write("more.".getBytes());
        recovered.closeForCommit().commit();

        assertThat(fake.tailKeys()).isEmpty();
        assertThat(new String(client.bytesOf(target))).isEqualTo("restored.more.");
    }

    @Test
    void commitLeavesTheTailsOfOtherTargets() throws IOException {
        RecoverableFsDataOutputStream other = writer.open(new Path("s3://bucket/out/part-0-00"));
        other.write("other".getBytes());
        S3ResumeRecoverable otherState = (S3ResumeRecoverable) other.persist();
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write("mine".getBytes());
        out.persist();

        out.closeForCommit().commit();

        assertThat(fake.tailKeys()).containsExactly(otherState.tail().key());
    }

    @Test
    void aFailedTailCleanUpDoesNotFailTheCommit() throws IOException {
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write("data".getBytes());
        out.persist();
        RecoverableFsDataOutputStream.Committer committer = out.closeForCommit();
        client.inject(Fault.on(Operation.LIST).failingWith(new IOException("listing refused")));

        committer.commitAfterRecovery();

        assertThat(new String(client.bytesOf(target))).isEqualTo("data");
        assertThat(fake.tailKeys()).hasSize(1);
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
    void writingAfterCloseForCommitFails() throws IOException {
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(1);
        out.closeForCommit();

        assertThatThrownBy(() -> out.write(2)).isInstanceOf(IOException.class);
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
    void foreignRecoverablesAreRejected() {
        RecoverableWriter.ResumeRecoverable foreign = new RecoverableWriter.ResumeRecoverable() {};

        assertThatThrownBy(() -> writer.recover(foreign)).isInstanceOf(IllegalArgumentException.class);
    }

    private S3ResumeRecoverable roundTrip(RecoverableWriter.ResumeRecoverable recoverable) throws IOException {
        return fake.roundTrip(recoverable);
    }

    private S3CommitRecoverable roundTrip(RecoverableWriter.CommitRecoverable recoverable) throws IOException {
        return fake.roundTrip(recoverable);
    }
}
