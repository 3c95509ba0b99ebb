package dev.flinks3.multipart;

import static dev.flinks3.multipart.TestData.PART;
import static dev.flinks3.multipart.TestData.crc;
import static dev.flinks3.multipart.TestData.random;
import static dev.flinks3.multipart.TestData.writeInSlices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.WriteCondition;
import dev.flinks3.transfer.fake.Fault;
import dev.flinks3.transfer.fake.Gate;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import dev.flinks3.transfer.fake.Operation;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MultipartUploadStreamTest {

    private final InMemoryObjectClient client = new InMemoryObjectClient();
    private final UploadEngine engine =
            new UploadEngine(client, TestData.settings(4, 64L * TestData.MIB).build());
    private final S3Location target = S3Location.of("s3", "bucket", "chk/state-1");

    @Test
    void smallObjectIsOnePutObject() throws IOException {
        byte[] data = random(1000, 1);
        try (MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE)) {
            out.write(data);
            assertThat(out.getPos()).isEqualTo(1000);
            assertThat(client.exists(target)).isFalse();
        }

        assertThat(client.bytesOf(target)).isEqualTo(data);
        assertThat(client.calls(Operation.PUT)).isEqualTo(1);
        assertNoMultipartCalls();
        assertThat(engine.metrics().objectsPut()).isEqualTo(1);
        assertThat(engine.budget().heldBytes()).isZero();
    }

    @Test
    void zeroByteStreamWritesZeroByteObject() throws IOException {
        engine.openStream(target, WriteCondition.NONE).close();

        assertThat(client.bytesOf(target)).isEmpty();
        assertThat(client.calls(Operation.PUT)).isEqualTo(1);
        assertNoMultipartCalls();
    }

    @Test
    void exactlyOneFullPartIsStillOnePutObject() throws IOException {
        byte[] data = random(PART, 2);
        try (MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE)) {
            writeInSlices(out, data);
        }

        assertThat(crc(client.bytesOf(target))).isEqualTo(crc(data));
        assertThat(client.calls(Operation.PUT)).isEqualTo(1);
        assertNoMultipartCalls();
    }

    @Test
    void partsAreUploadedWhileTheCallerKeepsWriting() throws IOException {
        byte[] data = random(3 * PART + PART / 2, 3);
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(out, data);

        // Three full parts went up before close(); the half part waits for it.
        assertThat(client.calls(Operation.CREATE_MULTIPART_UPLOAD)).isEqualTo(1);
        assertThat(client.calls(Operation.UPLOAD_PART)).isEqualTo(3);
        assertThat(client.pendingUploads()).hasSize(1);
        assertThat(client.exists(target)).isFalse();
        out.close();

        assertThat(client.calls(Operation.UPLOAD_PART)).isEqualTo(4);
        assertThat(client.calls(Operation.COMPLETE_MULTIPART_UPLOAD)).isEqualTo(1);
        assertThat(client.calls(Operation.PUT)).isZero();
        byte[] stored = client.bytesOf(target);
        assertThat(stored).hasSize(data.length);
        assertThat(crc(stored)).isEqualTo(crc(data));
        assertThat(client.pendingUploads()).isEmpty();
        assertThat(engine.metrics().partsUploaded()).isEqualTo(4);
        assertThat(engine.metrics().bytesUploaded()).isEqualTo(data.length);
        assertThat(engine.metrics().uploadsCompleted()).isEqualTo(1);
        assertThat(engine.budget().heldBytes()).isZero();
    }

    @Test
    void singleByteWritesProduceTheSameObject() throws IOException {
        byte[] data = random(PART + 10, 4);
        try (MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE)) {
            for (byte b : data) {
                out.write(b);
            }
        }

        assertThat(crc(client.bytesOf(target))).isEqualTo(crc(data));
        assertThat(client.calls(Operation.UPLOAD_PART)).isEqualTo(2);
    }

    @Test
    void failedPartFailsTheStreamAndAbortsTheUpload() throws IOException {
        IOException cause = new IOException("part 2 lost");
        client.inject(Fault.on(Operation.UPLOAD_PART)
                .when(call -> call.partNumber() == 2)
                .failingWith(cause));
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);

        assertThatThrownBy(() -> writeInSlices(out, random(4 * PART, 5)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("s3://bucket/chk/state-1")
                .hasCause(cause);
        int partsSent = client.calls(Operation.UPLOAD_PART);
        assertThatThrownBy(() -> out.write(1)).hasCause(cause);
        assertThatThrownBy(out::close).isSameAs(cause);

        assertThat(client.calls(Operation.UPLOAD_PART)).isEqualTo(partsSent);
        assertThat(client.calls(Operation.ABORT_MULTIPART_UPLOAD)).isEqualTo(1);
        assertThat(client.calls(Operation.COMPLETE_MULTIPART_UPLOAD)).isZero();
        assertNothingLeft();
        out.close();
        assertThat(client.calls(Operation.ABORT_MULTIPART_UPLOAD)).isEqualTo(1);
    }

    @Test
    void failedLastPartSurfacesAtClose() throws IOException {
        IOException cause = new IOException("last part lost");
        client.inject(Fault.on(Operation.UPLOAD_PART)
                .when(call -> call.partNumber() == 3)
                .failingWith(cause));
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(out, random(2 * PART + 7, 6));

        assertThatThrownBy(out::close).isSameAs(cause);
        assertThat(client.calls(Operation.ABORT_MULTIPART_UPLOAD)).isEqualTo(1);
        assertNothingLeft();
    }

    @Test
    void laterFailuresAreSuppressedUnderTheFirst() throws IOException {
        Gate gate = client.gate(Operation.UPLOAD_PART);
        gate.close();
        List<IOException> causes = new ArrayList<>();
        client.inject(Fault.on(Operation.UPLOAD_PART).times(2).failingWith(() -> {
            IOException e = new IOException("part failure " + (causes.size() + 1));
            causes.add(e);
            return e;
        }));
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(out, random(2 * PART + 1, 7));
        assertThat(gate.held()).isEqualTo(2);
        gate.open();

        assertThatThrownBy(out::close)
                .isSameAs(causes.get(0))
                .satisfies(e -> assertThat(e.getSuppressed()).containsExactly(causes.get(1)));
        assertNothingLeft();
    }

    @Test
    void failedCompleteAbortsTheUpload() throws IOException {
        S3RequestException cause =
                new S3RequestException("CompleteMultipartUpload", target.toString(), 500, "InternalError", null);
        client.inject(Fault.on(Operation.COMPLETE_MULTIPART_UPLOAD).failingWith(cause));
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(out, random(PART + 1, 8));

        assertThatThrownBy(out::close).isSameAs(cause);
        assertThat(client.calls(Operation.ABORT_MULTIPART_UPLOAD)).isEqualTo(1);
        assertThat(engine.metrics().uploadsAborted()).isEqualTo(1);
        assertNothingLeft();
    }

    /**
     * The complete took effect on the server but its response was lost (a retry would then see
     * NoSuchUpload): the object carries the ETag the parts give, so close() accepts it instead of
     * aborting and failing a write that happened.
     */
    @Test
    void lostCompleteResponseIsRecognisedByTheObjectsETag() throws IOException {
        client.inject(Fault.on(Operation.COMPLETE_MULTIPART_UPLOAD)
                .afterEffect()
                .failingWith(new S3RequestException(
                        "CompleteMultipartUpload", target.toString(), 404, "NoSuchUpload", null)));
        byte[] data = random(2 * PART + 3, 9);
        try (MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE)) {
            writeInSlices(out, data);
        }

        assertThat(crc(client.bytesOf(target))).isEqualTo(crc(data));
        assertThat(client.calls(Operation.HEAD)).isEqualTo(1);
        assertThat(client.calls(Operation.ABORT_MULTIPART_UPLOAD)).isZero();
    }

    @Test
    void lostPutResponseIsRecognisedByTheObjectsETag() throws IOException {
        client.inject(Fault.on(Operation.PUT)
                .when(call -> call.location().equals(target))
                .afterEffect()
                .failingWith(new IOException("connection reset")));
        byte[] data = random(100, 10);
        try (MultipartUploadStream out = engine.openStream(target, WriteCondition.IF_NONE_MATCH)) {
            out.write(data);
        }

        assertThat(client.bytesOf(target)).isEqualTo(data);
    }

    @Test
    void failedPutIsThrownWhenTheObjectIsNotThere() {
        IOException cause = new IOException("connection reset");
        client.inject(Fault.on(Operation.PUT).failingWith(cause));
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);

        assertThatThrownBy(() -> {
                    out.write(1);
                    out.close();
                })
                .isSameAs(cause);
        assertThat(client.exists(target)).isFalse();
    }

    @Test
    void noOverwriteKeepsTheExistingObject() {
        byte[] old = random(10, 11);
        client.store(target, old);
        MultipartUploadStream out = engine.openStream(target, WriteCondition.IF_NONE_MATCH);

        assertThatThrownBy(() -> {
                    out.write(random(100, 12));
                    out.close();
                })
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining(target.toString());
        assertThat(client.bytesOf(target)).isEqualTo(old);
    }

    @Test
    void noOverwriteOfAMultipartObjectAbortsAndKeepsTheExistingObject() throws IOException {
        byte[] old = random(10, 13);
        client.store(target, old);
        MultipartUploadStream out = engine.openStream(target, WriteCondition.IF_NONE_MATCH);
        writeInSlices(out, random(PART + 5, 14));

        assertThatThrownBy(out::close).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(client.bytesOf(target)).isEqualTo(old);
        assertThat(client.pendingUploads()).isEmpty();
        assertThat(client.calls(Operation.COMPLETE_MULTIPART_UPLOAD))
                .as("the probe's refused completion and the write's: no server is trusted with If-None-Match untested")
                .isEqualTo(2);
        assertThat(client.calls(Operation.ABORT_MULTIPART_UPLOAD))
                .as("the probe's upload and the write's")
                .isEqualTo(2);
    }

    @Test
    void aProbeThatFailsLeavesThatWriteToTheHeadCheckAndTheNextWriteProbesAgain() throws IOException {
        // The probe's first PutObject takes effect and its answer is lost.
        client.inject(Fault.on(Operation.PUT).atCall(1).afterEffect());
        S3Location first = target.withKey(target.key() + "-first");
        byte[] data = random(100, 16);
        MultipartUploadStream out = engine.openStream(first, WriteCondition.IF_NONE_MATCH);
        out.write(data);
        out.close();

        assertThat(client.bytesOf(first)).isEqualTo(data);
        assertThat(client.calls(Operation.HEAD))
                .as("the HEAD check in the probe's place")
                .isEqualTo(1);
        assertThat(client.keys(target.bucket()))
                .as("the failed probe leaves nothing")
                .containsExactly(first.key());

        S3Location second = target.withKey(target.key() + "-second");
        MultipartUploadStream again = engine.openStream(second, WriteCondition.IF_NONE_MATCH);
        again.write(data);
        again.close();
        assertThat(client.calls(Operation.HEAD))
                .as("probed again, found honoured: no HEAD")
                .isEqualTo(1);
        assertThat(client.calls(Operation.PUT))
                .as("failed probe 1, write 1, probe 2, write 1")
                .isEqualTo(1 + 1 + 2 + 1);
    }

    @Test
    void noOverwriteOfAMultipartObjectOnAServerIgnoringTheConditionProbesOnceThenChecksWithAHead() throws IOException {
        client.actAsServerIgnoringConditionalCompletion();
        byte[] old = random(10, 13);
        client.store(target, old);

        for (int attempt = 0; attempt < 2; attempt++) {
            MultipartUploadStream out = engine.openStream(target, WriteCondition.IF_NONE_MATCH);
            writeInSlices(out, random(PART + 5, 14));
            assertThatThrownBy(out::close).isInstanceOf(FileAlreadyExistsException.class);
        }

        assertThat(client.bytesOf(target)).isEqualTo(old);
        assertThat(client.pendingUploads()).isEmpty();
        assertThat(client.keys(target.bucket())).as("the probe leaves nothing").containsExactly(target.key());
        assertThat(client.calls(Operation.COMPLETE_MULTIPART_UPLOAD))
                .as("the probe's only")
                .isEqualTo(1);
        assertThat(client.calls(Operation.HEAD)).as("one check per write").isEqualTo(2);

        S3Location fresh = target.withKey(target.key() + "-fresh");
        byte[] data = random(PART + 5, 15);
        MultipartUploadStream out = engine.openStream(fresh, WriteCondition.IF_NONE_MATCH);
        writeInSlices(out, data);
        out.close();
        assertThat(client.bytesOf(fresh)).isEqualTo(data);
    }

    @Test
    void noOverwriteFallsBackToHeadWithoutConditionalWrites() {
        UploadEngine checking = new UploadEngine(
                client,
                TestData.settings(4, 64L * TestData.MIB)
                        .conditionalWritesEnabled(false)
                        .build());
        client.store(target, new byte[] {1});
        MultipartUploadStream out = checking.openStream(target, WriteCondition.IF_NONE_MATCH);

        assertThatThrownBy(() -> {
                    out.write(2);
                    out.close();
                })
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(client.calls(Operation.HEAD)).isEqualTo(1);
        assertThat(client.calls(Operation.PUT)).isZero();
        assertThat(client.bytesOf(target)).containsExactly(1);
    }

    @Test
    void overwriteReplacesTheObjectWithoutDeletingItFirst() throws IOException {
        client.store(target, new byte[] {1});
        try (MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE)) {
            out.write(2);
        }

        assertThat(client.bytesOf(target)).containsExactly(2);
        assertThat(client.calls(Operation.DELETE)).isZero();
    }

    @Test
    void secondCloseSendsNothing() throws IOException {
        MultipartUploadStream out = engine.openStream(target, WriteCondition.NONE);
        writeInSlices(out, random(PART + 1, 15));
        out.close();
        client.resetCounters();

        out.close();
        assertThat(client.calls(Operation.PUT)
                        + client.calls(Operation.UPLOAD_PART)
                        + client.calls(Operation.COMPLETE_MULTIPART_UPLOAD))
                .isZero();
        assertThatThrownBy(() -> out.write(1)).isInstanceOf(IOException.class).hasMessageContaining("closed");
    }

    @Test
    void writingBeyondTenThousandPartsFailsClearly() throws IOException {
        String uploadId = client.createMultipartUpload(target).join();
        List<CompletedPart> parts = new ArrayList<>();
        for (int n = 1; n <= CompletedPart.MAX_PART_NUMBER; n++) {
            parts.add(new CompletedPart(n, "\"etag-" + n + "\"", PART));
        }
        MultipartUploadStream out = engine.resumeStream(target, uploadId, parts);
        assertThat(out.getPos()).isEqualTo(10_000L * PART);

        assertThatThrownBy(() -> out.write(1))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("10000 parts")
                .hasMessageContaining(Long.toString(engine.partSizing().maxObjectBytes()));
        assertThatThrownBy(out::close).isInstanceOf(IOException.class).hasMessageContaining("10000 parts");
        assertThat(client.calls(Operation.PUT) + client.calls(Operation.COMPLETE_MULTIPART_UPLOAD))
                .isZero();
    }

    private void assertNoMultipartCalls() {
        assertThat(client.calls(Operation.CREATE_MULTIPART_UPLOAD)).isZero();
        assertThat(client.calls(Operation.UPLOAD_PART)).isZero();
        assertThat(client.calls(Operation.COMPLETE_MULTIPART_UPLOAD)).isZero();
    }

    private void assertNothingLeft() throws IOException {
        assertThat(client.exists(target)).isFalse();
        assertThat(client.listMultipartUploads("bucket", "")).isEmpty();
        assertThat(engine.budget().heldBytes()).isZero();
    }
}
