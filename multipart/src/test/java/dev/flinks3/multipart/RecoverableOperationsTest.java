package dev.flinks3.multipart;

import static dev.flinks3.multipart.TestData.MIB;
import static dev.flinks3.multipart.TestData.PART;
import static dev.flinks3.multipart.TestData.crc;
import static dev.flinks3.multipart.TestData.random;
import static dev.flinks3.multipart.TestData.writeInSlices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.WriteCondition;
import dev.flinks3.transfer.fake.Fault;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import dev.flinks3.transfer.fake.Operation;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** persist, closeForCommit, cancel and resume: what the recoverable writer builds on. */
class RecoverableOperationsTest {

    private final InMemoryObjectClient client = new InMemoryObjectClient();
    private final UploadEngine engine =
            new UploadEngine(client, TestData.settings(4, 64L * MIB).build());
    private final S3Location target = S3Location.of("s3", "bucket", "part-0-0");

    @Test
    void persistUploadsFullPartsAndReturnsTheTailWithoutClosing() throws IOException {
        byte[] data = random(2 * PART + 1000, 31);
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(out, data);

        UploadSnapshot persisted = out.persist();
        assertThat(persisted.uploadId()).isNotNull();
        assertThat(persisted.parts()).extracting(CompletedPart::partNumber).containsExactly(1, 2);
        assertThat(persisted.tailBytes()).isEqualTo(1000);
        assertThat(bytes(persisted.tail())).isEqualTo(Arrays.copyOfRange(data, 2 * PART, data.length));
        assertThat(persisted.position()).isEqualTo(data.length);
        assertThat(client.calls(Operation.COMPLETE_MULTIPART_UPLOAD)).isZero();

        byte[] more = random(10, 32);
        out.write(more);
        UploadSnapshot committable = out.closeForCommit();
        assertThat(committable.parts()).extracting(CompletedPart::partNumber).containsExactly(1, 2, 3);
        assertThat(committable.tailBytes()).isZero();
        assertThat(committable.position()).isEqualTo(data.length + 10L);
        assertThat(client.exists(target)).isFalse();

        engine.completeUpload(target, committable.uploadId(), committable.parts(), WriteCondition.NONE);
        assertThat(crc(client.bytesOf(target))).isEqualTo(crc(concat(data, more)));
    }

    @Test
    void persistSendsABufferOfAtLeastFiveMebibytesAsAPart() throws IOException {
        UploadEngine largeParts = new UploadEngine(
                client, TestData.settings(4, 64L * MIB).partSizeBytes(8L * MIB).build());
        MultipartUploadStream out = largeParts.openStream(target, WriteCondition.NONE);
        writeInSlices(out, random(6 * MIB, 33));

        UploadSnapshot persisted = out.persist();
        assertThat(persisted.parts()).extracting(CompletedPart::sizeBytes).containsExactly(6L * MIB);
        assertThat(persisted.tailBytes()).isZero();
        out.cancel();
    }

    @Test
    void withUniformPartsPersistKeepsAShortBufferAsTheTailAndEveryPartButTheLastHasThePartSize() throws IOException {
        UploadEngine uniform = new UploadEngine(
                client,
                TestData.settings(4, 64L * MIB)
                        .partSizeBytes(8L * MIB)
                        .uniformParts(true)
                        .build());
        byte[] beforePersist = random(6 * MIB, 35);
        MultipartUploadStream first = uniform.openStream(target, WriteCondition.NONE);
        writeInSlices(first, beforePersist);

        UploadSnapshot persisted = first.persist();
        assertThat(persisted.parts()).isEmpty();
        assertThat(persisted.tailBytes()).isEqualTo(6L * MIB);
        byte[] tail = bytes(persisted.tail());
        first.cancel();

        MultipartUploadStream resumed = uniform.resumeStream(target, persisted.uploadId(), persisted.parts());
        resumed.write(tail);
        byte[] afterRecovery = random(13 * MIB + 3, 36);
        writeInSlices(resumed, afterRecovery);
        UploadSnapshot persistedAgain = resumed.persist();
        assertThat(persistedAgain.parts()).extracting(CompletedPart::sizeBytes).containsExactly(8L * MIB, 8L * MIB);
        assertThat(persistedAgain.tailBytes()).isEqualTo(3L * MIB + 3);
        UploadSnapshot committable = resumed.closeForCommit();

        assertThat(committable.parts())
                .extracting(CompletedPart::sizeBytes)
                .containsExactly(8L * MIB, 8L * MIB, 3L * MIB + 3);
        uniform.completeUpload(target, committable.uploadId(), committable.parts(), WriteCondition.NONE);
        assertThat(crc(client.bytesOf(target))).isEqualTo(crc(concat(beforePersist, afterRecovery)));
    }

    @Test
    void persistOfExactlyOneFullPartLeavesNoTail() throws IOException {
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(out, random(PART, 34));

        UploadSnapshot persisted = out.persist();
        assertThat(persisted.parts()).hasSize(1);
        assertThat(persisted.tailBytes()).isZero();
        out.cancel();
    }

    @Test
    void persistBeforeTheFirstPartCreatesNoUpload() throws IOException {
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        out.write(random(100, 35));

        UploadSnapshot persisted = out.persist();
        assertThat(persisted.uploadId()).isNull();
        assertThat(persisted.parts()).isEmpty();
        assertThat(persisted.tailBytes()).isEqualTo(100);
        assertThat(client.calls(Operation.CREATE_MULTIPART_UPLOAD)).isZero();
        out.cancel();
    }

    @Test
    void closeForCommitOfNothingReturnsNoUpload() throws IOException {
        UploadSnapshot committable =
                engine.openStream(target, WriteCondition.NONE).closeForCommit();

        assertThat(committable.uploadId()).isNull();
        assertThat(committable.parts()).isEmpty();
        assertThat(committable.position()).isZero();
        assertThat(client.calls(Operation.CREATE_MULTIPART_UPLOAD) + client.calls(Operation.PUT))
                .isZero();
    }

    @Test
    void closeForCommitOfASmallStreamUploadsOneShortPart() throws IOException {
        byte[] data = random(100, 36);
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        out.write(data);

        UploadSnapshot committable = out.closeForCommit();
        assertThat(committable.parts()).extracting(CompletedPart::sizeBytes).containsExactly(100L);
        engine.completeUpload(target, committable.uploadId(), committable.parts(), WriteCondition.NONE);
        assertThat(client.bytesOf(target)).isEqualTo(data);
    }

    @Test
    void cancelAbortsAnUploadNoPersistHandedOut() throws IOException {
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(out, random(PART + 1, 37));
        out.cancel();

        await().atMost(Duration.ofSeconds(10))
                .until(() -> client.pendingUploads().isEmpty());
        assertThat(client.calls(Operation.ABORT_MULTIPART_UPLOAD)).isEqualTo(1);
        assertThat(engine.budget().heldBytes()).isZero();
    }

    @Test
    void cancelKeepsAnUploadAPersistHandedOut() throws IOException {
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(out, random(PART + 1, 38));
        out.persist();
        writeInSlices(out, random(2 * PART, 39));

        out.cancel();
        assertThat(client.calls(Operation.ABORT_MULTIPART_UPLOAD)).isZero();
        assertThat(client.pendingUploads()).hasSize(1);
        assertThat(engine.budget().heldBytes()).isZero();
    }

    @Test
    void failureAfterPersistDoesNotAbortTheHandedOutUpload() throws IOException {
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(out, random(PART + 1, 40));
        out.persist();
        IOException cause = new IOException("part lost");
        client.inject(Fault.on(Operation.UPLOAD_PART).failingWith(cause));
        writeInSlices(out, random(PART, 41));

        assertThatThrownBy(out::closeForCommit).isSameAs(cause);
        assertThat(client.calls(Operation.ABORT_MULTIPART_UPLOAD)).isZero();
        assertThat(client.pendingUploads()).hasSize(1);
    }

    @Test
    void anUploadIsOpenUntilItEndsOrAPersistHandsItOut() throws IOException {
        UploadMetrics metrics = engine.metrics();
        MultipartUploadStream aborted = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(aborted, random(PART + 1, 60));
        assertThat(metrics.uploadsOpen()).isEqualTo(1);
        aborted.cancel();
        assertThat(metrics.uploadsOpen()).isZero();

        MultipartUploadStream persisted = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(persisted, random(PART + 1, 61));
        UploadSnapshot first = persisted.persist();
        persisted.persist();
        assertThat(metrics.uploadsOpen()).isZero();
        assertThat(metrics.uploadsPersisted()).isEqualTo(1);
        // A cancelled task's stream: its upload belongs to the checkpoint that referenced it, not to this process.
        persisted.cancel();
        assertThat(metrics.uploadsOpen()).isZero();

        // Resumed from that checkpoint and committed: the upload is completed, and nothing is counted twice.
        MultipartUploadStream resumed = engine.resumeStream(target, first.uploadId(), first.parts());
        resumed.write(bytes(first.tail()));
        UploadSnapshot committable = resumed.closeForCommit();
        engine.completeUpload(target, committable.uploadId(), committable.parts(), WriteCondition.NONE);
        assertThat(metrics.uploadsOpen()).isZero();
        assertThat(metrics.uploadsPersisted()).isEqualTo(1);
        assertThat(metrics.uploadsStarted()).isEqualTo(2);

        MultipartUploadStream completed = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(completed, random(PART + 1, 62));
        assertThat(metrics.uploadsOpen()).isEqualTo(1);
        completed.close();
        assertThat(metrics.uploadsOpen()).isZero();
        assertThat(metrics.uploadsPersisted()).isEqualTo(1);
    }

    @Test
    void resumeContinuesTheUploadWithTheTailTakenBack() throws IOException {
        byte[] beforePersist = random(2 * PART + 777, 42);
        MultipartUploadStream first = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(first, beforePersist);
        UploadSnapshot persisted = first.persist();
        byte[] tail = bytes(persisted.tail());
        writeInSlices(first, random(PART, 43)); // lost with the failed task
        first.cancel();

        MultipartUploadStream resumed = engine.resumeStream(target, persisted.uploadId(), persisted.parts());
        assertThat(resumed.getPos()).isEqualTo(2L * PART);
        resumed.write(tail);
        assertThat(resumed.getPos()).isEqualTo(persisted.position());
        byte[] afterRecovery = random(PART + 5, 44);
        writeInSlices(resumed, afterRecovery);
        UploadSnapshot committable = resumed.closeForCommit();

        assertThat(committable.uploadId()).isEqualTo(persisted.uploadId());
        assertThat(committable.parts()).extracting(CompletedPart::partNumber).containsExactly(1, 2, 3, 4);
        engine.completeUpload(target, committable.uploadId(), committable.parts(), WriteCondition.NONE);
        assertThat(crc(client.bytesOf(target))).isEqualTo(crc(concat(beforePersist, afterRecovery)));
    }

    @Test
    void cancelOfAResumedStreamKeepsTheUpload() throws IOException {
        MultipartUploadStream first = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(first, random(PART + 1, 50));
        UploadSnapshot persisted = first.persist();
        first.cancel();

        MultipartUploadStream resumed = engine.resumeStream(target, persisted.uploadId(), persisted.parts());
        writeInSlices(resumed, random(2 * PART, 51));
        resumed.cancel();
        assertThat(client.calls(Operation.ABORT_MULTIPART_UPLOAD)).isZero();
        assertThat(client.pendingUploads()).hasSize(1);
    }

    @Test
    void resumeFromAnOlderPersistReplacesTheNewerParts() throws IOException {
        byte[] older = random(PART + 10, 45);
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(out, older);
        UploadSnapshot olderState = out.persist();
        byte[] olderTail = bytes(olderState.tail());
        writeInSlices(out, random(3 * PART, 46));
        out.persist();
        out.cancel();

        MultipartUploadStream resumed = engine.resumeStream(target, olderState.uploadId(), olderState.parts());
        resumed.write(olderTail);
        byte[] newer = random(PART / 2, 47);
        writeInSlices(resumed, newer);
        UploadSnapshot committable = resumed.closeForCommit();
        engine.completeUpload(target, committable.uploadId(), committable.parts(), WriteCondition.NONE);

        assertThat(crc(client.bytesOf(target))).isEqualTo(crc(concat(older, newer)));
    }

    @Test
    void completeUploadIsIdempotentWhenTheObjectIsOurs() throws IOException {
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(out, random(PART + 3, 48));
        UploadSnapshot committable = out.closeForCommit();
        engine.completeUpload(target, committable.uploadId(), committable.parts(), WriteCondition.NONE);

        // A commit replayed after recovery: the upload is gone (NoSuchUpload) but the object is ours.
        engine.completeUpload(target, committable.uploadId(), committable.parts(), WriteCondition.NONE);
        assertThat(client.calls(Operation.COMPLETE_MULTIPART_UPLOAD)).isEqualTo(2);
    }

    @Test
    void completeUploadFailsWhenTheUploadIsGoneAndTheObjectIsNotOurs() throws IOException {
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(out, random(PART + 3, 49));
        UploadSnapshot committable = out.closeForCommit();
        client.abortMultipartUpload(target, committable.uploadId()).join();
        client.store(target, new byte[] {1, 2, 3});

        assertThatThrownBy(() ->
                        engine.completeUpload(target, committable.uploadId(), committable.parts(), WriteCondition.NONE))
                .isInstanceOf(S3RequestException.class)
                .satisfies(e -> assertThat(((S3RequestException) e).errorCode()).isEqualTo("NoSuchUpload"));
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
