package dev.flinks3.transfer.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.ListPage;
import dev.flinks3.transfer.ObjectMetadata;
import dev.flinks3.transfer.RangeStream;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.WriteCondition;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class InMemoryObjectClientTest {

    private static final int PART = (int) InMemoryObjectClient.MIN_PART_SIZE;
    private final InMemoryObjectClient client = new InMemoryObjectClient();
    private final S3Location target = S3Location.of("s3", "bucket", "dir/file");

    @Test
    void putHeadAndRangedGet() throws IOException {
        client.put(target, utf8("hello world"), WriteCondition.NONE).join();

        ObjectMetadata head = client.head(target);
        assertThat(head.length()).isEqualTo(11);
        assertThat(head.eTag()).isEqualTo("\"5eb63bbbe01eeed093cb22bb8f5acdc3\"");
        assertThat(head.lastModifiedMillis()).isPositive();
        try (RangeStream range = client.get(target, 6, 100)) {
            assertThat(new String(range.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("world");
            assertThat(range.objectLength()).isEqualTo(11);
        }
        assertThatThrownBy(() -> client.get(target, 11, 20)).isInstanceOf(EOFException.class);
        assertThatThrownBy(() -> client.head(target.withKey("missing")))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("s3://bucket/missing");
        assertThat(client.calls(Operation.PUT)).isEqualTo(1);
        assertThat(client.calls(Operation.GET)).isEqualTo(2);
    }

    @Test
    void abortedRangeIsCountedAndUnreadable() throws IOException {
        client.store(target, new byte[100]);
        RangeStream range = client.get(target, 0, 100);
        assertThat(client.openRangeStreams()).isEqualTo(1);
        range.abort();
        range.abort();
        assertThat(client.openRangeStreams()).isZero();
        assertThat(client.abortedRangeStreams()).isEqualTo(1);
        assertThatThrownBy(range::read).isInstanceOf(IOException.class);
    }

    @Test
    void getBreaksMidBodyWhenAsked() throws IOException {
        client.store(target, new byte[100]);
        client.inject(
                Fault.on(Operation.GET).atCall(1).afterBytes(40).failingWith(new IOException("Connection reset")));
        try (RangeStream range = client.get(target, 10, 100)) {
            assertThat(range.readNBytes(new byte[100], 0, 40)).isEqualTo(40);
            assertThatThrownBy(range::read).hasMessage("Connection reset");
        }
        try (RangeStream range = client.get(target, 10, 100)) {
            assertThat(range.readAllBytes()).hasSize(90);
        }
    }

    @Test
    void ifNoneMatchRefusesExistingKeyAndKeepsOldObject() {
        client.store(target, new byte[] {1});
        CompletableFuture<String> put =
                client.put(target, ByteBuffer.wrap(new byte[] {2}), WriteCondition.IF_NONE_MATCH);
        assertThatThrownBy(put::join).hasCauseInstanceOf(FileAlreadyExistsException.class);
        assertThat(client.bytesOf(target)).containsExactly(1);
    }

    @Test
    void listPagesWithDelimiterAndContinuation() throws IOException {
        for (String key : List.of("a/1", "a/2", "b", "c/x/1", "c/y", "d", "dir/", "dir/e")) {
            client.store(target.withKey(key), new byte[0]);
        }
        List<String> objects = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            ListPage page = client.list("bucket", "", "/", token, 2);
            assertThat(page.objects().size() + page.commonPrefixes().size()).isBetween(1, 2);
            page.objects().forEach(o -> objects.add(o.key()));
            prefixes.addAll(page.commonPrefixes());
            token = page.nextContinuationToken();
            pages++;
        } while (token != null);
        assertThat(objects).containsExactly("b", "d");
        assertThat(prefixes).containsExactly("a/", "c/", "dir/");
        assertThat(pages).isEqualTo(3);

        ListPage dir = client.list("bucket", "dir/", "/", null, 1000);
        assertThat(dir.objects()).extracting(ObjectMetadata::key).containsExactly("dir/", "dir/e");
        ListPage flat = client.list("bucket", "c/", null, null, 1000);
        assertThat(flat.objects()).extracting(ObjectMetadata::key).containsExactly("c/x/1", "c/y");
    }

    @Test
    void deleteBatchReportsDeniedKeys() throws IOException {
        client.store(target.withKey("keep"), new byte[0]);
        client.store(target.withKey("go"), new byte[0]);
        client.denyDelete(location -> location.key().equals("keep"));
        assertThat(client.deleteBatch("bucket", List.of("keep", "go", "absent")))
                .containsExactly("keep (AccessDenied: Access Denied)");
        assertThat(client.keys("bucket")).containsExactly("keep");
    }

    @Test
    void multipartUploadCompletesOnlyWithValidParts() throws IOException {
        String uploadId = client.createMultipartUpload(target).join();
        CompletedPart small =
                client.uploadPart(target, uploadId, 1, ByteBuffer.allocate(10)).join();
        CompletedPart last =
                client.uploadPart(target, uploadId, 2, ByteBuffer.allocate(10)).join();
        assertThat(client.listParts(target, uploadId)).containsExactly(small, last);

        assertS3Error(
                client.completeMultipartUpload(target, uploadId, List.of(small, last), WriteCondition.NONE),
                "EntityTooSmall");
        assertS3Error(
                client.completeMultipartUpload(target, uploadId, List.of(last, small), WriteCondition.NONE),
                "InvalidPartOrder");
        CompletedPart wrongTag = new CompletedPart(2, "\"nope\"", 10);
        CompletedPart full = client.uploadPart(target, uploadId, 1, ByteBuffer.allocate(PART))
                .join();
        assertS3Error(
                client.completeMultipartUpload(target, uploadId, List.of(full, wrongTag), WriteCondition.NONE),
                "InvalidPart");

        String eTag = client.completeMultipartUpload(target, uploadId, List.of(full, last), WriteCondition.NONE)
                .join();
        assertThat(eTag).endsWith("-2\"");
        assertThat(client.bytesOf(target)).hasSize(PART + 10);
        assertThat(client.pendingUploads()).isEmpty();
        assertS3Error(
                client.completeMultipartUpload(target, uploadId, List.of(full, last), WriteCondition.NONE),
                "NoSuchUpload");
    }

    @Test
    void abortedUploadIsGone() throws IOException {
        String uploadId = client.createMultipartUpload(target).join();
        assertThat(client.listMultipartUploads("bucket", "dir/")).hasSize(1);
        client.abortMultipartUpload(target, uploadId).join();
        client.abortMultipartUpload(target, uploadId).join();
        assertThat(client.listMultipartUploads("bucket", "")).isEmpty();
        assertS3Error(client.uploadPart(target, uploadId, 1, ByteBuffer.allocate(1)), "NoSuchUpload");
        assertThatThrownBy(() -> client.listParts(target, uploadId)).isInstanceOf(FileNotFoundException.class);
    }

    @Test
    void lostResponseKeepsServerSideEffect() {
        client.inject(Fault.on(Operation.PUT).afterEffect().failingWith(new IOException("lost")));
        assertThatThrownBy(
                        () -> client.put(target, utf8("x"), WriteCondition.NONE).join())
                .isInstanceOf(CompletionException.class)
                .hasRootCauseMessage("lost");
        assertThat(client.bytesOf(target)).containsExactly('x');
        client.put(target, utf8("y"), WriteCondition.NONE).join();
        assertThat(client.bytesOf(target)).containsExactly('y');
    }

    @Test
    void faultByPredicateStrikesOnlyMatchingCalls() {
        String uploadId = client.createMultipartUpload(target).join();
        client.inject(Fault.on(Operation.UPLOAD_PART)
                .when(c -> c.partNumber() == 2)
                .always()
                .failingWith(() -> new IOException("part 2")));
        client.uploadPart(target, uploadId, 1, ByteBuffer.allocate(1)).join();
        assertThatThrownBy(() -> client.uploadPart(target, uploadId, 2, ByteBuffer.allocate(1))
                        .join())
                .hasRootCauseMessage("part 2");
        assertThatThrownBy(() -> client.uploadPart(target, uploadId, 2, ByteBuffer.allocate(1))
                        .join())
                .hasRootCauseMessage("part 2");
    }

    @Test
    void gateHoldsCallsUntilOpened() {
        String uploadId = client.createMultipartUpload(target).join();
        Gate gate = client.gate(Operation.UPLOAD_PART);
        gate.close();
        CompletableFuture<CompletedPart> first = client.uploadPart(target, uploadId, 1, ByteBuffer.allocate(1));
        CompletableFuture<CompletedPart> second = client.uploadPart(target, uploadId, 2, ByteBuffer.allocate(1));
        assertThat(gate.held()).isEqualTo(2);
        assertThat(client.inFlight(Operation.UPLOAD_PART)).isEqualTo(2);
        assertThat(first).isNotDone();
        gate.releaseOne();
        assertThat(first).isCompleted();
        assertThat(second).isNotDone();
        gate.open();
        assertThat(second).isCompleted();
        assertThat(client.maxInFlight(Operation.UPLOAD_PART)).isEqualTo(2);
        assertThat(client.inFlight(Operation.UPLOAD_PART)).isZero();
    }

    @Test
    void executorCompletesFuturesOnItsThreads() {
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "fake-s3"));
        try {
            InMemoryObjectClient async = new InMemoryObjectClient(executor);
            // Held at the gate, so the continuation is attached before the call can complete.
            async.gate(Operation.PUT).close();
            CompletableFuture<String> thread = async.put(target, utf8("x"), WriteCondition.NONE)
                    .thenApply(eTag -> Thread.currentThread().getName());
            async.gate(Operation.PUT).open();
            assertThat(thread.join()).isEqualTo("fake-s3");
        } finally {
            executor.shutdownNow();
        }
    }

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static void assertS3Error(CompletableFuture<?> future, String errorCode) {
        assertThatThrownBy(future::join)
                .cause()
                .isInstanceOf(S3RequestException.class)
                .satisfies(e -> assertThat(((S3RequestException) e).errorCode()).isEqualTo(errorCode));
    }
}
