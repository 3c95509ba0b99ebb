package dev.flinks3.testserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link ServerMode#BENCHMARK} answers as S3 does for what the benchmark's contenders use: PutObject,
 * ranged GETs, conditional writes, multipart uploads (ETags, the 5 MiB minimum, abort, listing parts
 * and uploads), CopyObject, listings with prefix, delimiter and pages, single and multi-object deletes;
 * and it accepts any signature, which {@link ServerMode#FULL} refuses.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class BenchmarkModeServerTest {

    private static final String BUCKET = "bench-mode";
    private static final int MIB = 1 << 20;

    private static EmbeddedS3Server server;
    private static S3Client s3;

    @BeforeAll
    static void start() {
        server = EmbeddedS3Server.builder()
                .mode(ServerMode.BENCHMARK)
                .bucket(BUCKET)
                .start();
        s3 = TestClients.s3(server);
    }

    @AfterAll
    static void stop() throws Exception {
        s3.close();
        server.close();
    }

    private static byte[] random(int length, long seed) {
        byte[] data = new byte[length];
        new Random(seed).nextBytes(data);
        return data;
    }

    private static byte[] get(String key, String range) {
        return s3.getObjectAsBytes(r -> r.bucket(BUCKET).key(key).range(range)).asByteArray();
    }

    @Test
    void aPutObjectIsReadBackWholeAndByRangesWithItsMd5AsETag() throws Exception {
        byte[] data = random(3 * MIB + 17, 1);
        String eTag = s3.putObject(r -> r.bucket(BUCKET).key("put/one"), RequestBody.fromBytes(data))
                .eTag();
        String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
        assertThat(eTag).isEqualTo("\"" + md5 + "\"");
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("put/one")).asByteArray())
                .isEqualTo(data);
        assertThat(get("put/one", "bytes=100-199")).isEqualTo(Arrays.copyOfRange(data, 100, 200));
        assertThat(get("put/one", "bytes=" + (data.length - 5) + "-"))
                .isEqualTo(Arrays.copyOfRange(data, data.length - 5, data.length));
        assertThat(get("put/one", "bytes=-7")).isEqualTo(Arrays.copyOfRange(data, data.length - 7, data.length));
        assertThat(get("put/one", "bytes=10-" + (10L * data.length)))
                .isEqualTo(Arrays.copyOfRange(data, 10, data.length));
        assertThat(s3.headObject(r -> r.bucket(BUCKET).key("put/one")).contentLength())
                .isEqualTo(data.length);
        assertThatThrownBy(() -> get("put/one", "bytes=" + data.length + "-"))
                .isInstanceOfSatisfying(
                        S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(416));
        assertThatThrownBy(() -> s3.headObject(r -> r.bucket(BUCKET).key("put/none")))
                .isInstanceOf(NoSuchKeyException.class);
    }

    @Test
    void aPutObjectLongerThanOneStoredArrayIsKeptWhole() throws Exception {
        // S3 takes up to 5 GiB in one PutObject; the server keeps such a body in arrays of CHUNK_BYTES.
        byte[] data = random(InMemoryBlobStore.CHUNK_BYTES + 5 * MIB + 3, 5);
        String eTag = s3.putObject(r -> r.bucket(BUCKET).key("put/long"), RequestBody.fromBytes(data))
                .eTag();
        String md5 = HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
        assertThat(eTag).isEqualTo("\"" + md5 + "\"");
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("put/long")).asByteArray())
                .isEqualTo(data);
        int from = InMemoryBlobStore.CHUNK_BYTES - 7;
        assertThat(get("put/long", "bytes=" + from + "-" + (from + 19)))
                .isEqualTo(Arrays.copyOfRange(data, from, from + 20));
        s3.deleteObject(r -> r.bucket(BUCKET).key("put/long"));
    }

    @Test
    void aMultipartObjectIsItsPartsInOrderWithS3sETag() throws Exception {
        byte[] first = random(5 * MIB, 2);
        byte[] second = random(5 * MIB, 3);
        byte[] last = random(1234, 4);
        String key = "multipart/object";
        String uploadId =
                s3.createMultipartUpload(r -> r.bucket(BUCKET).key(key)).uploadId();
        List<CompletedPart> parts = new ArrayList<>();
        MessageDigest md5s = MessageDigest.getInstance("MD5");
        byte[][] bodies = {first, second, last};
        for (int i = 0; i < bodies.length; i++) {
            int number = i + 1;
            byte[] body = bodies[i];
            String eTag = s3.uploadPart(
                            r -> r.bucket(BUCKET).key(key).uploadId(uploadId).partNumber(number),
                            RequestBody.fromBytes(body))
                    .eTag();
            md5s.update(MessageDigest.getInstance("MD5").digest(body));
            parts.add(CompletedPart.builder().partNumber(number).eTag(eTag).build());
        }
        assertThat(s3.listParts(r -> r.bucket(BUCKET).key(key).uploadId(uploadId))
                        .parts())
                .extracting(p -> p.size())
                .containsExactly((long) first.length, (long) second.length, (long) last.length);
        assertThat(s3.listMultipartUploads(r -> r.bucket(BUCKET)).uploads())
                .anySatisfy(u -> assertThat(u.uploadId()).isEqualTo(uploadId));
        String eTag = s3.completeMultipartUpload(
                        r -> r.bucket(BUCKET).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(parts)))
                .eTag();
        assertThat(eTag).isEqualTo("\"" + HexFormat.of().formatHex(md5s.digest()) + "-3\"");
        byte[] whole = new byte[first.length + second.length + last.length];
        System.arraycopy(first, 0, whole, 0, first.length);
        System.arraycopy(second, 0, whole, first.length, second.length);
        System.arraycopy(last, 0, whole, first.length + second.length, last.length);
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key(key)).asByteArray())
                .isEqualTo(whole);
        int from = first.length - 10;
        int to = first.length + second.length + 10;
        assertThat(get(key, "bytes=" + from + "-" + (to - 1))).isEqualTo(Arrays.copyOfRange(whole, from, to));
    }

    @Test
    void completionRefusesSmallPartsAndWrongETagsAndAbortForgetsTheUpload() {
        String key = "multipart/refused";
        String uploadId =
                s3.createMultipartUpload(r -> r.bucket(BUCKET).key(key)).uploadId();
        String small = s3.uploadPart(
                        r -> r.bucket(BUCKET).key(key).uploadId(uploadId).partNumber(1),
                        RequestBody.fromBytes(random(1000, 5)))
                .eTag();
        String tail = s3.uploadPart(
                        r -> r.bucket(BUCKET).key(key).uploadId(uploadId).partNumber(2),
                        RequestBody.fromBytes(random(1000, 6)))
                .eTag();
        CompletedPart one = CompletedPart.builder().partNumber(1).eTag(small).build();
        CompletedPart two = CompletedPart.builder().partNumber(2).eTag(tail).build();
        assertThatThrownBy(() -> s3.completeMultipartUpload(
                        r -> r.bucket(BUCKET).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(one, two))))
                .isInstanceOfSatisfying(
                        S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("EntityTooSmall"));
        CompletedPart wrong =
                CompletedPart.builder().partNumber(2).eTag("\"00\"").build();
        assertThatThrownBy(() -> s3.completeMultipartUpload(
                        r -> r.bucket(BUCKET).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(wrong))))
                .isInstanceOfSatisfying(
                        S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidPart"));
        s3.abortMultipartUpload(r -> r.bucket(BUCKET).key(key).uploadId(uploadId));
        assertThatThrownBy(() -> s3.listParts(r -> r.bucket(BUCKET).key(key).uploadId(uploadId)))
                .isInstanceOfSatisfying(
                        S3Exception.class,
                        e -> assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchUpload"));
        assertThatThrownBy(() -> s3.headObject(r -> r.bucket(BUCKET).key(key))).isInstanceOf(NoSuchKeyException.class);
    }

    @Test
    void conditionalWritesSeeWhetherTheObjectExists() {
        s3.putObject(r -> r.bucket(BUCKET).key("conditional/new").ifNoneMatch("*"), RequestBody.fromBytes(new byte[5]));
        assertThatThrownBy(() -> s3.putObject(
                        r -> r.bucket(BUCKET).key("conditional/new").ifNoneMatch("*"),
                        RequestBody.fromBytes(new byte[6])))
                .isInstanceOfSatisfying(
                        S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(412));
        String key = "conditional/multipart";
        String uploadId =
                s3.createMultipartUpload(r -> r.bucket(BUCKET).key(key)).uploadId();
        String eTag = s3.uploadPart(
                        r -> r.bucket(BUCKET).key(key).uploadId(uploadId).partNumber(1),
                        RequestBody.fromBytes(new byte[7]))
                .eTag();
        s3.completeMultipartUpload(r -> r.bucket(BUCKET)
                .key(key)
                .uploadId(uploadId)
                .ifNoneMatch("*")
                .multipartUpload(m ->
                        m.parts(CompletedPart.builder().partNumber(1).eTag(eTag).build())));
        assertThat(s3.headObject(r -> r.bucket(BUCKET).key(key)).contentLength())
                .isEqualTo(7);
        assertThat(s3.headObject(r -> r.bucket(BUCKET).key("conditional/new")).contentLength())
                .isEqualTo(5);
        String current =
                s3.headObject(r -> r.bucket(BUCKET).key("conditional/new")).eTag();
        assertThatThrownBy(() -> s3.putObject(
                        r -> r.bucket(BUCKET).key("conditional/new").ifMatch("\"0123\""),
                        RequestBody.fromBytes(new byte[8])))
                .isInstanceOfSatisfying(
                        S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(412));
        s3.putObject(r -> r.bucket(BUCKET).key("conditional/new").ifMatch(current), RequestBody.fromBytes(new byte[9]));
        assertThat(s3.headObject(r -> r.bucket(BUCKET).key("conditional/new")).contentLength())
                .isEqualTo(9);
    }

    @Test
    void aWrongContentMd5IsRefusedAsS3Does() {
        assertThatThrownBy(() -> s3.putObject(
                        r -> r.bucket(BUCKET).key("md5/wrong").contentMD5("AAAAAAAAAAAAAAAAAAAAAA=="),
                        RequestBody.fromBytes(random(100, 7))))
                .isInstanceOfSatisfying(
                        S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(400));
        assertThatThrownBy(() -> s3.headObject(r -> r.bucket(BUCKET).key("md5/wrong")))
                .isInstanceOf(NoSuchKeyException.class);
    }

    @Test
    void listingsHonourPrefixDelimiterAndPages() {
        List<String> keys = List.of("list/a/1", "list/a/2", "list/b/1", "list/c", "list/d/x/y", "lister");
        for (String key : keys) {
            s3.putObject(r -> r.bucket(BUCKET).key(key), RequestBody.fromBytes(key.getBytes()));
        }
        ListObjectsV2Response folders =
                s3.listObjectsV2(r -> r.bucket(BUCKET).prefix("list/").delimiter("/"));
        assertThat(folders.commonPrefixes())
                .extracting(CommonPrefix::prefix)
                .containsExactly("list/a/", "list/b/", "list/d/");
        assertThat(folders.contents()).extracting(S3Object::key).containsExactly("list/c");
        List<String> paged =
                s3.listObjectsV2Paginator(r -> r.bucket(BUCKET).prefix("list").maxKeys(2)).contents().stream()
                        .map(S3Object::key)
                        .collect(Collectors.toList());
        assertThat(paged).containsExactly("list/a/1", "list/a/2", "list/b/1", "list/c", "list/d/x/y", "lister");
        List<String> pagedFolders = new ArrayList<>();
        s3.listObjectsV2Paginator(
                        r -> r.bucket(BUCKET).prefix("list/").delimiter("/").maxKeys(1))
                .forEach(page -> {
                    page.commonPrefixes().forEach(p -> pagedFolders.add(p.prefix()));
                    page.contents().forEach(o -> pagedFolders.add(o.key()));
                });
        assertThat(pagedFolders).containsExactly("list/a/", "list/b/", "list/c", "list/d/");
        assertThat(s3.listObjectsV2(r -> r.bucket(BUCKET).prefix("list/").startAfter("list/b/1"))
                        .contents())
                .extracting(S3Object::key)
                .containsExactly("list/c", "list/d/x/y");
    }

    @Test
    void copiesAndDeletesAndDroppingAPrefix() {
        byte[] data = random(2 * MIB, 8);
        s3.putObject(r -> r.bucket(BUCKET).key("copy/source"), RequestBody.fromBytes(data));
        s3.copyObject(r -> r.sourceBucket(BUCKET)
                .sourceKey("copy/source")
                .destinationBucket(BUCKET)
                .destinationKey("copy/target"));
        assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("copy/target")).asByteArray())
                .isEqualTo(data);
        s3.deleteObject(r -> r.bucket(BUCKET).key("copy/source"));
        assertThatThrownBy(() -> s3.headObject(r -> r.bucket(BUCKET).key("copy/source")))
                .isInstanceOf(NoSuchKeyException.class);
        for (int i = 0; i < 5; i++) {
            String key = "drop/run-1/" + i;
            s3.putObject(r -> r.bucket(BUCKET).key(key), RequestBody.fromBytes(new byte[10]));
        }
        s3.putObject(r -> r.bucket(BUCKET).key("drop/run-10/kept"), RequestBody.fromBytes(new byte[10]));
        s3.deleteObjects(r -> r.bucket(BUCKET)
                .delete(d -> d.objects(
                        ObjectIdentifier.builder().key("drop/run-1/0").build(),
                        ObjectIdentifier.builder().key("drop/run-1/1").build())));
        assertThat(s3.listObjectsV2(r -> r.bucket(BUCKET).prefix("drop/run-1/")).keyCount())
                .isEqualTo(3);
        server.dropObjects(BUCKET, "drop/run-1/");
        assertThat(s3.listObjectsV2(r -> r.bucket(BUCKET).prefix("drop/")).contents())
                .extracting(S3Object::key)
                .containsExactly("drop/run-10/kept");
    }

    @Test
    void anySignatureIsAcceptedHereAndRefusedByTheFullServer() throws Exception {
        URI endpoint = server.endpoint();
        try (S3Client wrongKey = TestClients.s3(endpoint, server.accessKey(), "not-the-secret")) {
            wrongKey.putObject(r -> r.bucket(BUCKET).key("signed/any"), RequestBody.fromBytes(new byte[3]));
            assertThat(wrongKey.headObject(r -> r.bucket(BUCKET).key("signed/any"))
                            .contentLength())
                    .isEqualTo(3);
        }
        try (EmbeddedS3Server full = EmbeddedS3Server.builder().bucket(BUCKET).start();
                S3Client wrongKey = TestClients.s3(full.endpoint(), full.accessKey(), "not-the-secret")) {
            assertThat(full.mode()).isEqualTo(ServerMode.FULL);
            assertThatThrownBy(() -> wrongKey.putObject(
                            r -> r.bucket(BUCKET).key("signed/any"), RequestBody.fromBytes(new byte[3])))
                    .isInstanceOfSatisfying(
                            S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
        }
    }

    @Test
    void aModeNameOutsideTheTwoIsAClearError() {
        assertThat(ServerMode.named("Benchmark")).isEqualTo(ServerMode.BENCHMARK);
        assertThatThrownBy(() -> ServerMode.named("fast"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("server mode must be one of full, benchmark, was 'fast'");
    }
}
