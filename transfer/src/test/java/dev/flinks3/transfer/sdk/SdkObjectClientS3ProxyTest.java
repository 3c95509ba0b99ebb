package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.GetAnswer;
import dev.flinks3.transfer.GetRequest;
import dev.flinks3.transfer.ListPage;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.ObjectMetadata;
import dev.flinks3.transfer.PendingUpload;
import dev.flinks3.transfer.RangeStream;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.TestSettings;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.WriteCondition;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@link ObjectClient} method of {@link SdkObjectClient} against S3Proxy over HTTP with
 * SigV4; one subclass per HTTP client.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class SdkObjectClientS3ProxyTest {

    private static final String BUCKET = "transfer-it";
    private static final int MIB = 1024 * 1024;
    /** Copies above this size are multipart in these tests (instead of above 5 GiB). */
    private static final long MULTIPART_COPY_THRESHOLD = 6L * MIB;

    private final ClientSettings.HttpClientType httpClient;
    private final ClientSettings.ClientType s3Client;
    private final AtomicInteger keys = new AtomicInteger();
    private EmbeddedS3Server server;
    private S3ClientOwner owner;
    private ObjectClient client;

    protected SdkObjectClientS3ProxyTest(ClientSettings.HttpClientType httpClient) {
        this(ClientSettings.ClientType.SDK, httpClient);
    }

    protected SdkObjectClientS3ProxyTest(ClientSettings.ClientType s3Client, ClientSettings.HttpClientType httpClient) {
        this.s3Client = s3Client;
        this.httpClient = httpClient;
    }

    @BeforeAll
    void start() {
        server = EmbeddedS3Server.builder().bucket(BUCKET).start();
        owner = new S3ClientOwner(
                TestSettings.forServer(server, httpClient)
                        .client(c -> c.client(s3Client))
                        .build(),
                MULTIPART_COPY_THRESHOLD,
                UploadSettings.MIN_PART_SIZE);
        client = owner.objectClient();
    }

    @AfterAll
    void stop() throws Exception {
        try (EmbeddedS3Server stopping = server) {
            owner.close();
        }
    }

    @Test
    void putThenHeadAndGetReturnExactlyTheBytes() throws IOException {
        S3Location location = newLocation();
        byte[] data = randomBytes(MIB + 17);
        String eTag =
                client.put(location, ByteBuffer.wrap(data), WriteCondition.NONE).join();

        ObjectMetadata head = client.head(location);
        assertThat(head.length()).isEqualTo(data.length);
        assertThat(head.eTag()).isEqualTo(eTag);
        assertThat(head.lastModifiedMillis()).isPositive();
        assertThat(readAll(location, data.length)).isEqualTo(data);
    }

    @Test
    void putSendsTheRemainingBytesAndLeavesTheBufferAlone() throws IOException {
        S3Location location = newLocation();
        byte[] data = randomBytes(1000);
        ByteBuffer body = ByteBuffer.wrap(data);
        body.position(100).limit(900);

        client.put(location, body, WriteCondition.NONE).join();

        assertThat(body.position()).isEqualTo(100);
        assertThat(body.limit()).isEqualTo(900);
        assertThat(readAll(location, 800)).isEqualTo(java.util.Arrays.copyOfRange(data, 100, 900));
    }

    @Test
    void uploadsCarryTheirCrc32cAsAHeaderWhichTheServerChecksAndNoTrailer() throws IOException {
        server.requestLog().clear();
        S3Location location = newLocation();
        byte[] data = randomBytes(1024);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(data);
        String expected = java.util.Base64.getEncoder()
                .encodeToString(
                        ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());

        client.put(location, ByteBuffer.wrap(data), WriteCondition.NONE).join();

        RequestRecord put = server.requestLog().entries(RequestKind.PUT_OBJECT).get(0);
        assertThat(put.header("x-amz-checksum-crc32c")).contains(expected);
        assertThat(put.header("x-amz-trailer")).isEmpty();
        assertThat(put.header("x-amz-content-sha256"))
                .hasValueSatisfying(payload -> assertThat(payload).doesNotContain("TRAILER"));
        assertThat(((SdkObjectClient) client).checksumMode()).isEqualTo(FlexibleChecksums.Mode.CRC32C);
    }

    @Test
    void rangedGetReturnsTheRangeAndTheObjectLength() throws IOException {
        S3Location location = newLocation();
        byte[] data = randomBytes(10_000);
        put(location, data);

        try (RangeStream range = client.get(location, 1000, 3000)) {
            assertThat(range.objectLength()).isEqualTo(10_000);
            assertThat(range.readAllBytes()).isEqualTo(java.util.Arrays.copyOfRange(data, 1000, 3000));
        }
        try (RangeStream pastTheEnd = client.get(location, 9000, 20_000)) {
            assertThat(pastTheEnd.readAllBytes()).isEqualTo(java.util.Arrays.copyOfRange(data, 9000, 10_000));
        }
    }

    @Test
    void readIntoCopiesTheRangeIntoTheArrayAtItsOffset() throws Exception {
        S3Location location = newLocation();
        byte[] data = randomBytes(3 * MIB + 5);
        put(location, data);
        byte[] dst = new byte[2 * MIB + 20];

        GetAnswer read = client.get(GetRequest.into(location, 1000, ByteBuffer.wrap(dst, 10, 2 * MIB)))
                .get(30, TimeUnit.SECONDS);

        assertThat(read.bytes()).isEqualTo(2 * MIB);
        assertThat(read.objectLength()).isEqualTo(data.length);
        assertThat(java.util.Arrays.copyOfRange(dst, 10, 10 + 2 * MIB))
                .isEqualTo(java.util.Arrays.copyOfRange(data, 1000, 1000 + 2 * MIB));
        assertThat(dst[9]).isZero();
        assertThat(dst[10 + 2 * MIB]).isZero();
        // A direct buffer (as ForSt reads into) is filled from its position; its position and limit stay.
        ByteBuffer direct = ByteBuffer.allocateDirect(MIB + 100);
        direct.position(100);
        GetAnswer intoDirect = client.get(GetRequest.into(location, 7, direct)).get(30, TimeUnit.SECONDS);
        assertThat(intoDirect.bytes()).isEqualTo(MIB);
        assertThat(direct.position()).isEqualTo(100);
        assertThat(direct.limit()).isEqualTo(MIB + 100);
        byte[] copied = new byte[MIB];
        direct.get(copied);
        assertThat(copied).isEqualTo(java.util.Arrays.copyOfRange(data, 7, 7 + MIB));
        // A range past the end copies what there is.
        GetAnswer tail = client.get(GetRequest.into(location, data.length - 5, ByteBuffer.wrap(dst, 0, 100)))
                .get(30, TimeUnit.SECONDS);
        assertThat(tail.bytes()).isEqualTo(5);
        assertThat(java.util.Arrays.copyOfRange(dst, 0, 5))
                .isEqualTo(java.util.Arrays.copyOfRange(data, data.length - 5, data.length));
    }

    @Test
    void readIntoFileWritesTheRangeAtItsOffsetOnlyWhileTheETagMatches(@TempDir java.nio.file.Path dir)
            throws Exception {
        S3Location location = newLocation();
        byte[] data = randomBytes(2 * MIB + 3);
        put(location, data);
        java.nio.file.Path file = dir.resolve("download");
        java.nio.file.Files.write(file, new byte[0]);

        GetAnswer second =
                client.get(GetRequest.intoFile(location, MIB, 3L * MIB, file)).get(30, TimeUnit.SECONDS);
        GetAnswer first = client.get(GetRequest.intoFile(location, 0, MIB, file).ifMatch(second.eTag()))
                .get(30, TimeUnit.SECONDS);

        assertThat(first.bytes()).isEqualTo(MIB);
        assertThat(second.bytes()).isEqualTo(MIB + 3);
        assertThat(second.objectLength()).isEqualTo(data.length);
        assertThat(first.eTag()).isEqualTo(second.eTag()).isNotBlank();
        assertThat(java.nio.file.Files.readAllBytes(file)).isEqualTo(data);
        // Replaced: If-Match with the old ETag is 412.
        put(location, randomBytes(100));
        assertThatThrownBy(() -> client.get(
                                GetRequest.intoFile(location, 0, 10, file).ifMatch(first.eTag()))
                        .join())
                .cause()
                .isInstanceOfSatisfying(
                        S3RequestException.class,
                        e -> assertThat(e.statusCode()).isEqualTo(412))
                .hasMessageContaining(location.toString());
        S3Location empty = newLocation();
        put(empty, new byte[0]);
        assertThat(client.get(GetRequest.intoFile(empty, 0, MIB, file))
                        .get(30, TimeUnit.SECONDS)
                        .objectLength())
                .isZero();
    }

    @Test
    void readIntoAtTheEndIsEndOfFileAndOfAnEmptyObjectCopiesNothing() throws Exception {
        S3Location location = newLocation();
        put(location, randomBytes(100));
        assertThatThrownBy(() -> client.get(GetRequest.into(location, 100, ByteBuffer.allocate(10)))
                        .join())
                .hasCauseInstanceOf(EOFException.class);
        S3Location empty = newLocation();
        put(empty, new byte[0]);
        GetAnswer none =
                client.get(GetRequest.into(empty, 0, ByteBuffer.allocate(10))).get(30, TimeUnit.SECONDS);
        assertThat(none.bytes()).isZero();
        assertThat(none.objectLength()).isZero();
        S3Location missing = newLocation();
        assertThatThrownBy(() -> client.get(GetRequest.into(missing, 0, ByteBuffer.allocate(10)))
                        .join())
                .hasCauseInstanceOf(FileNotFoundException.class)
                .hasMessageContaining(missing.toString());
    }

    @Test
    void readIntoThatIsCancelledLeavesTheClientWorking() throws Exception {
        S3Location location = newLocation();
        byte[] data = randomBytes(16 * MIB);
        put(location, data);

        CompletableFuture<GetAnswer> cancelled =
                client.get(GetRequest.into(location, 0, ByteBuffer.allocateDirect(data.length)));
        cancelled.cancel(true);

        byte[] again = new byte[data.length];
        assertThat(client.get(GetRequest.into(location, 0, ByteBuffer.wrap(again)))
                        .get(30, TimeUnit.SECONDS)
                        .bytes())
                .isEqualTo(data.length);
        assertThat(again).isEqualTo(data);
    }

    @Test
    void rangeStartingAtTheEndIsEndOfFile() throws IOException {
        S3Location location = newLocation();
        put(location, randomBytes(100));
        assertThatThrownBy(() -> client.get(location, 100, 200))
                .isInstanceOf(EOFException.class)
                .hasMessageContaining(location.toString());
    }

    @Test
    void emptyObjectIsAFileWithNoBytes() throws IOException {
        S3Location location = newLocation();
        put(location, new byte[0]);

        assertThat(client.head(location).length()).isZero();
        try (RangeStream empty = client.get(location, 0, 8 * MIB)) {
            assertThat(empty.read()).isEqualTo(-1);
            assertThat(empty.objectLength()).isZero();
        }
    }

    @Test
    void abortDropsALongBodyAndTheClientKeepsWorking() throws IOException {
        S3Location location = newLocation();
        byte[] data = randomBytes(16 * MIB);
        put(location, data);
        RangeStream range = client.get(location, 0, data.length);
        byte[] start = new byte[1024];
        assertThat(range.readNBytes(start, 0, start.length)).isEqualTo(1024);
        range.abort();
        range.abort();
        range.close();
        assertThat(readAll(location, data.length)).isEqualTo(data);
    }

    @Test
    void missingObjectsAreFileNotFoundNamingTheLocation() {
        S3Location missing = S3Location.of("s3", BUCKET, "no/such/key");
        assertThatThrownBy(() -> client.head(missing))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("s3://transfer-it/no/such/key");
        assertThatThrownBy(() -> client.get(missing, 0, 10))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("s3://transfer-it/no/such/key");
        assertThatThrownBy(() -> copy(missing, newLocation(), 10))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("s3://transfer-it/no/such/key");
    }

    @Test
    void missingBucketIsFileNotFound() {
        S3Location location = S3Location.of("s3", "no-such-bucket", "key");
        assertThatThrownBy(() -> client.head(location))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("s3://no-such-bucket/key");
    }

    @Test
    void deleteRemovesAndToleratesMissingKeys() throws IOException {
        S3Location location = newLocation();
        put(location, randomBytes(10));
        client.delete(location);
        assertThatThrownBy(() -> client.head(location)).isInstanceOf(FileNotFoundException.class);
        client.delete(location);
    }

    @Test
    void conditionalPutFailsWhenTheKeyExists() throws IOException {
        S3Location location = newLocation();
        byte[] first = randomBytes(100);
        client.put(location, ByteBuffer.wrap(first), WriteCondition.IF_NONE_MATCH)
                .join();

        Throwable second = catchThrowable(
                () -> client.put(location, ByteBuffer.wrap(randomBytes(100)), WriteCondition.IF_NONE_MATCH)
                        .join());

        assertThat(second).isInstanceOf(CompletionException.class);
        assertThat(second.getCause())
                .isInstanceOf(FileAlreadyExistsException.class)
                .hasMessageContaining(location.toString());
        assertThat(readAll(location, 100)).isEqualTo(first);
    }

    @Test
    void serverWithoutConditionalWritesFailsClearly() {
        S3Location location = newLocation();
        server.failNext(RequestKind.PUT_OBJECT, 1, 501, "NotImplemented");
        try {
            Throwable failure = catchThrowable(
                    () -> client.put(location, ByteBuffer.wrap(randomBytes(10)), WriteCondition.IF_NONE_MATCH)
                            .join());
            assertThat(failure.getCause())
                    .isInstanceOf(S3RequestException.class)
                    .hasMessageContaining("If-None-Match: *")
                    .hasMessageContaining("HTTP 501 NotImplemented")
                    .hasMessageContaining(location.toString());
            assertThat(((S3RequestException) failure.getCause()).statusCode()).isEqualTo(501);
        } finally {
            server.clearFaults();
        }
    }

    @Test
    void unconditionalPutReplaces() throws IOException {
        S3Location location = newLocation();
        put(location, randomBytes(100));
        byte[] second = randomBytes(50);
        put(location, second);
        assertThat(readAll(location, 50)).isEqualTo(second);
    }

    @Test
    void multipartUploadCompletesWithExactBytes() throws IOException {
        S3Location location = newLocation();
        byte[] data = randomBytes(5 * MIB + 1234);
        String uploadId = client.createMultipartUpload(location).join();
        assertThat(pendingUploadIds(location)).contains(uploadId);

        CompletableFuture<CompletedPart> part2 =
                client.uploadPart(location, uploadId, 2, ByteBuffer.wrap(data, 5 * MIB, 1234));
        CompletableFuture<CompletedPart> part1 =
                client.uploadPart(location, uploadId, 1, ByteBuffer.wrap(data, 0, 5 * MIB));
        List<CompletedPart> parts = List.of(part1.join(), part2.join());
        assertThat(parts).extracting(CompletedPart::sizeBytes).containsExactly((long) 5 * MIB, 1234L);

        List<CompletedPart> listed = client.listParts(location, uploadId);
        assertThat(listed).extracting(CompletedPart::partNumber).containsExactly(1, 2);
        assertThat(listed)
                .extracting(CompletedPart::eTag)
                .containsExactlyElementsOf(
                        parts.stream().map(CompletedPart::eTag).collect(Collectors.toList()));

        client.completeMultipartUpload(location, uploadId, parts, WriteCondition.IF_NONE_MATCH)
                .join();

        assertThat(readAll(location, data.length)).isEqualTo(data);
        assertThat(pendingUploadIds(location)).doesNotContain(uploadId);
    }

    @Test
    void conditionalCompleteFailsWhenTheKeyExists() throws IOException {
        S3Location location = newLocation();
        byte[] existing = randomBytes(10);
        put(location, existing);
        String uploadId = client.createMultipartUpload(location).join();
        CompletedPart part = client.uploadPart(location, uploadId, 1, ByteBuffer.wrap(randomBytes(100)))
                .join();

        Throwable failure = catchThrowable(
                () -> client.completeMultipartUpload(location, uploadId, List.of(part), WriteCondition.IF_NONE_MATCH)
                        .join());

        assertThat(failure.getCause()).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(readAll(location, 10)).isEqualTo(existing);
        client.abortMultipartUpload(location, uploadId).join();
    }

    @Test
    void abortRemovesTheUploadAndIsIdempotent() throws IOException {
        S3Location location = newLocation();
        String uploadId = client.createMultipartUpload(location).join();
        client.uploadPart(location, uploadId, 1, ByteBuffer.wrap(randomBytes(100)))
                .join();

        client.abortMultipartUpload(location, uploadId).join();
        client.abortMultipartUpload(location, uploadId).join();

        assertThat(pendingUploadIds(location)).doesNotContain(uploadId);
        assertThatThrownBy(() -> client.head(location)).isInstanceOf(FileNotFoundException.class);
    }

    @Test
    void unknownUploadIsFileNotFound() {
        S3Location location = newLocation();
        // S3 answers NoSuchUpload; S3Proxy lists no parts instead, so its answer is injected.
        server.failNext(RequestKind.LIST_PARTS, 1, 404, "NoSuchUpload");
        try {
            assertThatThrownBy(() -> client.listParts(location, "no-such-upload"))
                    .isInstanceOf(FileNotFoundException.class)
                    .hasMessageContaining(location.toString())
                    .hasMessageContaining("no-such-upload");
        } finally {
            server.clearFaults();
        }
    }

    @Test
    void listPagesThroughObjectsAndPrefixes() throws IOException {
        String dir = "list-" + keys.incrementAndGet() + "/";
        for (String key : List.of("a", "b", "c", "sub1/x", "sub2/y")) {
            put(S3Location.of("s3", BUCKET, dir + key), randomBytes(3));
        }
        List<String> objects = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            ListPage page = client.list(BUCKET, dir, "/", token, 2);
            page.objects().forEach(o -> objects.add(o.key()));
            prefixes.addAll(page.commonPrefixes());
            token = page.nextContinuationToken();
            pages++;
        } while (token != null);

        assertThat(objects).containsExactly(dir + "a", dir + "b", dir + "c");
        assertThat(prefixes).containsExactly(dir + "sub1/", dir + "sub2/");
        assertThat(pages).isGreaterThanOrEqualTo(3);

        ListPage flat = client.list(BUCKET, dir, null, null, 1000);
        assertThat(flat.objects()).hasSize(5);
        assertThat(flat.objects().get(0).length()).isEqualTo(3);
        assertThat(flat.isLast()).isTrue();
    }

    @Test
    void keysWithSpecialCharactersRoundTrip() throws IOException {
        String dir = "special-" + keys.incrementAndGet() + "/";
        S3Location location = S3Location.of("s3", BUCKET, dir + "a b+c%d=e#f/ünïcødé 日本.bin");
        byte[] data = randomBytes(321);
        put(location, data);

        assertThat(client.head(location).length()).isEqualTo(321);
        assertThat(readAll(location, 321)).isEqualTo(data);
        assertThat(client.list(BUCKET, dir, null, null, 10).objects())
                .extracting(ObjectMetadata::key)
                .containsExactly(location.key());
        S3Location copy = location.withKey(location.key() + ".copy");
        copy(location, copy, 321);
        assertThat(readAll(copy, 321)).isEqualTo(data);
        assertThat(client.deleteBatch(BUCKET, List.of(location.key(), copy.key())))
                .isEmpty();
        assertThat(client.list(BUCKET, dir, null, null, 10).objects()).isEmpty();
    }

    @Test
    void deleteBatchOfFifteenHundredKeysSendsTwoRequestsWithContentMd5() throws IOException {
        String dir = "batch-" + keys.incrementAndGet() + "/";
        List<String> batch = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            batch.add(dir + i);
        }
        // 1,500 PUTs through S3Proxy take seconds; its filesystem backend serves plain files as objects.
        Path bucketDir = server.baseDir().resolve(BUCKET);
        Files.createDirectories(bucketDir.resolve(dir));
        for (String key : batch) {
            Files.write(bucketDir.resolve(key), new byte[] {1});
        }
        assertThat(client.head(S3Location.of("s3", BUCKET, batch.get(1499))).length())
                .isEqualTo(1);
        server.requestLog().clear();

        assertThat(client.deleteBatch(BUCKET, batch)).isEmpty();

        assertThat(server.requestLog().count(RequestKind.DELETE_OBJECTS)).isEqualTo(2);
        assertThat(server.requestLog().entries(RequestKind.DELETE_OBJECTS))
                .allSatisfy(this::assertDeleteObjectsChecksum);
        assertThat(client.list(BUCKET, dir, null, null, 1000).objects()).isEmpty();
    }

    /** The body checksum a DeleteObjects request carries (S3 requires one). */
    protected void assertDeleteObjectsChecksum(RequestRecord request) {
        assertThat(request.header("Content-MD5"))
                .as("servers that predate flexible checksums require Content-MD5")
                .isPresent();
    }

    @Test
    void copyProducesTheSameBytes() throws IOException {
        S3Location source = newLocation();
        byte[] data = randomBytes(MIB);
        put(source, data);
        S3Location target = newLocation();
        server.requestLog().clear();

        copy(source, target, data.length);

        assertThat(server.requestLog().count(RequestKind.COPY_OBJECT)).isEqualTo(1);
        assertThat(readAll(target, data.length)).isEqualTo(data);
    }

    @Test
    void largeCopyIsMultipartAndExact() throws IOException {
        S3Location source = newLocation();
        byte[] data = randomBytes(11 * MIB + 5);
        put(source, data);
        S3Location target = newLocation();
        server.requestLog().clear();

        copy(source, target, data.length);

        assertThat(server.requestLog().count(RequestKind.UPLOAD_PART_COPY)).isEqualTo(3);
        assertThat(readAll(target, data.length)).isEqualTo(data);
        assertThat(pendingUploadIds(target)).isEmpty();
    }

    @Test
    void largeCopySendsTheSourceETagWithEveryPartAndFailsOnceTheSourceIsReplaced() throws IOException {
        S3Location source = newLocation();
        byte[] data = randomBytes(11 * MIB + 5);
        put(source, data);
        String eTag = client.head(source).eTag();
        S3Location target = newLocation();
        server.requestLog().clear();

        copy(source, target, data.length);

        assertThat(server.requestLog().entries(RequestKind.UPLOAD_PART_COPY))
                .hasSize(3)
                .allSatisfy(part ->
                        assertThat(part.header("x-amz-copy-source-if-match")).contains(eTag));
        // A source whose length is no longer the listed one has changed: nothing is copied.
        S3Location other = newLocation();
        assertThatThrownBy(() -> copy(source, other, data.length + 1L))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(source.toString())
                .hasMessageContaining("changed");
        assertThat(pendingUploadIds(other)).isEmpty();
    }

    @Test
    void failedMultipartCopyIsAborted() throws IOException {
        S3Location source = newLocation();
        put(source, randomBytes(11 * MIB));
        S3Location target = newLocation();
        server.failNext(RequestKind.UPLOAD_PART_COPY, 1, 403, "AccessDenied");
        try {
            assertThatThrownBy(() -> copy(source, target, 11 * MIB))
                    .isInstanceOf(S3RequestException.class)
                    .hasMessageContaining("UploadPartCopy")
                    .hasMessageContaining("AccessDenied");
        } finally {
            server.clearFaults();
        }
        assertThat(pendingUploadIds(target)).isEmpty();
        assertThatThrownBy(() -> client.head(target)).isInstanceOf(FileNotFoundException.class);
    }

    @Test
    void copyOfUnknownLengthAsksTheServerFirst() throws IOException {
        S3Location small = newLocation();
        byte[] smallData = randomBytes(MIB + 3);
        put(small, smallData);
        S3Location large = newLocation();
        byte[] largeData = randomBytes(11 * MIB + 5);
        put(large, largeData);
        S3Location smallCopy = newLocation();
        S3Location largeCopy = newLocation();
        server.requestLog().clear();

        copy(small, smallCopy, -1);
        copy(large, largeCopy, -1);

        assertThat(server.requestLog().count(RequestKind.COPY_OBJECT)).isEqualTo(1);
        assertThat(server.requestLog().count(RequestKind.UPLOAD_PART_COPY)).isEqualTo(3);
        assertThat(readAll(smallCopy, smallData.length)).isEqualTo(smallData);
        assertThat(readAll(largeCopy, largeData.length)).isEqualTo(largeData);
    }

    @Test
    void largeCopyFailsWhenTheSourceIsReplacedBetweenPartsAndLeavesNothing() throws IOException {
        S3Location source = newLocation();
        put(source, randomBytes(11 * MIB + 5));
        S3Location target = newLocation();
        AtomicInteger parts = new AtomicInteger();
        // Before S3Proxy serves the second part, the source is replaced.
        server.answers()
                .rewrite(
                        RequestKind.UPLOAD_PART_COPY,
                        request -> {
                            if (parts.incrementAndGet() == 2) {
                                server.putObjectDirectly(BUCKET, source.key(), randomBytes(11 * MIB + 5 + 1));
                            }
                            return false;
                        },
                        AnswerRewriteFilter.ALWAYS,
                        (request, served) -> served);
        try {
            assertThatThrownBy(() -> copy(source, target, 11 * MIB + 5))
                    .isInstanceOf(S3RequestException.class)
                    .satisfies(e ->
                            assertThat(((S3RequestException) e).statusCode()).isEqualTo(412));
        } finally {
            server.answers().clear();
        }
        assertThat(pendingUploadIds(target)).isEmpty();
        assertThatThrownBy(() -> client.head(target)).isInstanceOf(FileNotFoundException.class);
    }

    @Test
    void cancelledLargeCopyIsAborted() throws Exception {
        S3Location source = newLocation();
        put(source, randomBytes(11 * MIB));
        S3Location target = newLocation();
        java.util.concurrent.CountDownLatch partArrived = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        server.answers()
                .rewrite(
                        RequestKind.UPLOAD_PART_COPY,
                        request -> {
                            partArrived.countDown();
                            try {
                                release.await(30, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            return false;
                        },
                        AnswerRewriteFilter.ALWAYS,
                        (request, served) -> served);
        try {
            CompletableFuture<Void> copying = client.copy(source, target, 11 * MIB);
            assertThat(partArrived.await(30, TimeUnit.SECONDS)).isTrue();

            copying.cancel(true);
            release.countDown();

            org.awaitility.Awaitility.await()
                    .atMost(java.time.Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(pendingUploadIds(target)).isEmpty());
        } finally {
            release.countDown();
            server.answers().clear();
        }
        assertThatThrownBy(() -> client.head(target)).isInstanceOf(FileNotFoundException.class);
    }

    @Test
    void fatalErrorsNameOperationLocationStatusAndCode() {
        S3Location location = newLocation();
        server.failNext(RequestKind.PUT_OBJECT, 1, 403, "AccessDenied");
        try {
            Throwable failure =
                    catchThrowable(() -> client.put(location, ByteBuffer.wrap(randomBytes(10)), WriteCondition.NONE)
                            .join());
            assertThat(failure.getCause()).isInstanceOf(S3RequestException.class);
            S3RequestException e = (S3RequestException) failure.getCause();
            assertThat(e.statusCode()).isEqualTo(403);
            assertThat(e.errorCode()).isEqualTo("AccessDenied");
            assertThat(e).hasMessageContaining("PutObject").hasMessageContaining(location.toString());
        } finally {
            server.clearFaults();
        }
    }

    @Test
    void throttlingIsRetriedUntilTheRequestSucceeds() throws IOException {
        S3Location location = newLocation();
        byte[] data = randomBytes(1000);
        server.requestLog().clear();
        server.failNext(RequestKind.PUT_OBJECT, 2, 503, "SlowDown");
        try {
            put(location, data);
        } finally {
            server.clearFaults();
        }
        assertThat(server.requestLog().count(RequestKind.PUT_OBJECT)).isEqualTo(3);
        assertThat(readAll(location, 1000)).isEqualTo(data);
    }

    private List<String> pendingUploadIds(S3Location location) throws IOException {
        return client.listMultipartUploads(BUCKET, location.key()).stream()
                .map(PendingUpload::uploadId)
                .collect(Collectors.toList());
    }

    /** A server-side copy, waited for. */
    private void copy(S3Location source, S3Location target, long length) throws IOException {
        Futures.await(client.copy(source, target, length), "CopyObject", source);
    }

    private void put(S3Location location, byte[] data) {
        client.put(location, ByteBuffer.wrap(data), WriteCondition.NONE).join();
    }

    private byte[] readAll(S3Location location, int length) throws IOException {
        try (InputStream in = client.get(location, 0, Math.max(length, 1))) {
            return in.readAllBytes();
        }
    }

    private S3Location newLocation() {
        return S3Location.of("s3", BUCKET, httpClient + "/object-" + keys.incrementAndGet());
    }

    public static byte[] randomBytes(int length) {
        byte[] data = new byte[length];
        new Random(length * 31L + 7).nextBytes(data);
        return data;
    }
}
