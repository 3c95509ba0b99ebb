package dev.flinks3.testserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.util.VersionInfo;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/** The embedded server accepts SigV4 requests from the project's AWS SDK version and logs them. */
class EmbeddedS3ServerTest {

    private static final String BUCKET = "test-bucket";

    private static EmbeddedS3Server server;
    private static S3Client s3;

    @BeforeAll
    static void start() {
        server = EmbeddedS3Server.builder().bucket(BUCKET).start();
        s3 = TestClients.s3(server);
    }

    @AfterAll
    static void stop() throws Exception {
        s3.close();
        server.close();
        assertThat(server.baseDir()).doesNotExist();
    }

    @BeforeEach
    void clearLog() {
        server.requestLog().clear();
    }

    @Test
    void runsWithTheSdkVersionOfTheBuild() {
        assertThat(VersionInfo.SDK_VERSION).isEqualTo(System.getProperty("expected.awssdk.version"));
        assertThat(server.endpoint().getHost()).isEqualTo("127.0.0.1");
        assertThat(server.endpoint().getPort()).isPositive();
        assertThat(server.baseDir().resolve(BUCKET)).isDirectory();
    }

    @Test
    void putThenGetRoundTripsBytesAndLogsOneRequestEach() {
        byte[] data = "hello, s3".getBytes(StandardCharsets.UTF_8);
        s3.putObject(b -> b.bucket(BUCKET).key("dir/a b+c%d=é#.txt"), RequestBody.fromBytes(data));

        byte[] read = s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("dir/a b+c%d=é#.txt"))
                .asByteArray();

        assertThat(read).isEqualTo(data);
        RequestLog log = server.requestLog();
        assertThat(log.count(RequestKind.PUT_OBJECT)).isEqualTo(1);
        assertThat(log.count(RequestKind.GET_OBJECT)).isEqualTo(1);
        RequestRecord put = log.entries(RequestKind.PUT_OBJECT).get(0);
        assertThat(put.bucket()).isEqualTo(BUCKET);
        assertThat(put.key()).isEqualTo("dir/a b+c%d=é#.txt");
        assertThat(put.method()).isEqualTo("PUT");
        assertThat(put.header("Authorization"))
                .hasValueSatisfying(v -> assertThat(v).startsWith("AWS4-HMAC-SHA256"));
        assertThat(put.startNanos())
                .isLessThan(log.entries(RequestKind.GET_OBJECT).get(0).startNanos());
    }

    @Test
    void rejectsAWrongSecret() {
        try (S3Client wrong = TestClients.s3(server.endpoint(), EmbeddedS3Server.ACCESS_KEY, "not-the-secret")) {
            assertThatThrownBy(() -> wrong.headBucket(b -> b.bucket(BUCKET)))
                    .isInstanceOf(S3Exception.class)
                    .satisfies(e -> assertThat(((S3Exception) e).statusCode()).isEqualTo(403));
        }
    }

    @Test
    void withoutAuthenticationAnySignatureIsAccepted() throws Exception {
        try (EmbeddedS3Server open = EmbeddedS3Server.builder()
                        .authenticate(false)
                        .bucket(BUCKET)
                        .start();
                S3Client anyKeys = TestClients.s3(open.endpoint(), "any-key", "any-secret")) {
            anyKeys.putObject(b -> b.bucket(BUCKET).key("k"), RequestBody.fromString("v"));

            assertThat(anyKeys.getObjectAsBytes(b -> b.bucket(BUCKET).key("k")).asUtf8String())
                    .isEqualTo("v");
        }
    }

    @Test
    void multipartUploadIsAssembledAndEachCallIsLogged() {
        String key = "multipart/object";
        byte[] part1 = randomBytes(5 * 1024 * 1024, 1);
        byte[] part2 = randomBytes(1024, 2);
        String uploadId =
                s3.createMultipartUpload(b -> b.bucket(BUCKET).key(key)).uploadId();
        List<CompletedPart> parts = new ArrayList<>();
        byte[][] bodies = {part1, part2};
        for (int i = 0; i < bodies.length; i++) {
            int partNumber = i + 1;
            String etag = s3.uploadPart(
                            b -> b.bucket(BUCKET).key(key).uploadId(uploadId).partNumber(partNumber),
                            RequestBody.fromBytes(bodies[partNumber - 1]))
                    .eTag();
            parts.add(CompletedPart.builder().partNumber(partNumber).eTag(etag).build());
        }
        assertThat(s3.listMultipartUploads(b -> b.bucket(BUCKET)).uploads()).hasSize(1);

        s3.completeMultipartUpload(b -> b.bucket(BUCKET)
                .key(key)
                .uploadId(uploadId)
                .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build()));

        byte[] read = s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray();
        assertThat(read).hasSize(part1.length + part2.length);
        assertThat(Arrays.copyOfRange(read, part1.length, read.length)).isEqualTo(part2);
        assertThat(s3.listMultipartUploads(b -> b.bucket(BUCKET)).uploads()).isEmpty();
        RequestLog log = server.requestLog();
        assertThat(log.count(RequestKind.CREATE_MULTIPART_UPLOAD)).isEqualTo(1);
        assertThat(log.count(RequestKind.UPLOAD_PART)).isEqualTo(2);
        assertThat(log.count(RequestKind.COMPLETE_MULTIPART_UPLOAD)).isEqualTo(1);
        assertThat(log.count(RequestKind.LIST_MULTIPART_UPLOADS)).isEqualTo(2);
    }

    @Test
    void abortedUploadLeavesNothing() {
        String uploadId =
                s3.createMultipartUpload(b -> b.bucket(BUCKET).key("aborted")).uploadId();
        s3.abortMultipartUpload(b -> b.bucket(BUCKET).key("aborted").uploadId(uploadId));

        assertThat(s3.listMultipartUploads(b -> b.bucket(BUCKET)).uploads()).isEmpty();
        assertThat(server.requestLog().count(RequestKind.ABORT_MULTIPART_UPLOAD))
                .isEqualTo(1);
    }

    @Test
    void listObjectsV2PagesAndCopyAndBatchDeleteAreClassified() {
        for (int i = 0; i < 5; i++) {
            int n = i;
            s3.putObject(b -> b.bucket(BUCKET).key("list/k" + n), RequestBody.fromString("x" + n));
        }
        s3.copyObject(b -> b.sourceBucket(BUCKET)
                .sourceKey("list/k0")
                .destinationBucket(BUCKET)
                .destinationKey("list/k9"));

        ListObjectsV2Response page =
                s3.listObjectsV2(b -> b.bucket(BUCKET).prefix("list/").maxKeys(4));
        ListObjectsV2Response rest =
                s3.listObjectsV2(b -> b.bucket(BUCKET).prefix("list/").continuationToken(page.nextContinuationToken()));

        assertThat(page.isTruncated()).isTrue();
        List<String> keys =
                new ArrayList<>(page.contents().stream().map(S3Object::key).toList());
        keys.addAll(rest.contents().stream().map(S3Object::key).toList());
        assertThat(keys).containsExactly("list/k0", "list/k1", "list/k2", "list/k3", "list/k4", "list/k9");

        s3.deleteObjects(b -> b.bucket(BUCKET)
                .delete(d -> d.objects(keys.stream()
                        .map(k -> ObjectIdentifier.builder().key(k).build())
                        .toList())));
        assertThat(s3.listObjectsV2(b -> b.bucket(BUCKET).prefix("list/")).contents())
                .isEmpty();
        RequestLog log = server.requestLog();
        assertThat(log.count(RequestKind.COPY_OBJECT)).isEqualTo(1);
        assertThat(log.count(RequestKind.LIST_OBJECTS_V2)).isEqualTo(3);
        assertThat(log.count(RequestKind.DELETE_OBJECTS)).isEqualTo(1);
    }

    @Test
    void headOfAMissingKeyIs404() {
        assertThatThrownBy(() -> s3.headObject(b -> b.bucket(BUCKET).key("missing")))
                .isInstanceOf(S3Exception.class)
                .satisfies(e -> assertThat(((S3Exception) e).statusCode()).isEqualTo(404));
        assertThat(server.requestLog().count(RequestKind.HEAD_OBJECT)).isEqualTo(1);
    }

    /**
     * Conditional write ({@code If-None-Match: *} on PutObject, S3 since 2024-08): this pins what
     * S3Proxy 4.1.0 does with it, because NO_OVERWRITE in the plugin relies on it where honoured.
     */
    @Test
    void conditionalWriteWithIfNoneMatchStarFailsWith412OnAnExistingKey() {
        s3.putObject(b -> b.bucket(BUCKET).key("conditional").ifNoneMatch("*"), RequestBody.fromString("first"));

        assertThatThrownBy(() -> s3.putObject(
                        b -> b.bucket(BUCKET).key("conditional").ifNoneMatch("*"), RequestBody.fromString("second")))
                .isInstanceOf(S3Exception.class)
                .satisfies(e -> assertThat(((S3Exception) e).statusCode()).isEqualTo(412));
        assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("conditional")).asUtf8String())
                .isEqualTo("first");
    }

    @Test
    void injectedFaultAnswersTheChosenRequestsOnlyAndIsNotRetriedWhenFatal() {
        String uploadId =
                s3.createMultipartUpload(b -> b.bucket(BUCKET).key("faulty")).uploadId();
        server.failNext(RequestKind.UPLOAD_PART, 1, 403, "AccessDenied");

        assertThatThrownBy(() -> s3.uploadPart(
                        b -> b.bucket(BUCKET).key("faulty").uploadId(uploadId).partNumber(1),
                        RequestBody.fromBytes(new byte[1024])))
                .isInstanceOf(S3Exception.class)
                .satisfies(e -> assertThat(((S3Exception) e).awsErrorDetails().errorCode())
                        .isEqualTo("AccessDenied"));
        s3.uploadPart(
                b -> b.bucket(BUCKET).key("faulty").uploadId(uploadId).partNumber(1),
                RequestBody.fromBytes(new byte[1024]));
        s3.abortMultipartUpload(b -> b.bucket(BUCKET).key("faulty").uploadId(uploadId));

        assertThat(server.requestLog().count(RequestKind.UPLOAD_PART)).isEqualTo(2);
    }

    @Test
    void requestCountsAreServedOverHttpAndCanBeReset() throws Exception {
        s3.headBucket(b -> b.bucket(BUCKET));
        s3.headBucket(b -> b.bucket(BUCKET));
        URI counts = server.endpoint().resolve("/__flinks3/requests");
        HttpClient http = HttpClient.newHttpClient();

        HttpResponse<String> before = http.send(HttpRequest.newBuilder(counts).build(), BodyHandlers.ofString());
        HttpResponse<Void> reset =
                http.send(HttpRequest.newBuilder(counts).DELETE().build(), BodyHandlers.discarding());

        assertThat(before.statusCode()).isEqualTo(200);
        // <Operation> <requests> <summed serve time in ns> <body bytes sent>
        assertThat(before.body()).matches("HeadBucket 2 \\d+ 0\nTotal 2\n");
        assertThat(reset.statusCode()).isEqualTo(204);
        assertThat(server.requestLog().count(RequestKind.HEAD_BUCKET)).isZero();
    }

    /**
     * The bytes the server counts for GetObject are those of the body the client received: the whole
     * object, a range's length, and for a range that runs past the object's end only what exists.
     */
    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void bytesSentForWholeAndRangedGetsAreWhatTheClientReceived() {
        byte[] content = randomBytes(100_000, 3);
        s3.putObject(b -> b.bucket(BUCKET).key("sized"), RequestBody.fromBytes(content));

        assertThat(bytesSentFor(null)).isEqualTo(content.length).isEqualTo(receivedFor(null));
        assertThat(bytesSentFor("bytes=1000-1999")).isEqualTo(1000).isEqualTo(receivedFor("bytes=1000-1999"));
        assertThat(bytesSentFor("bytes=-300")).isEqualTo(300).isEqualTo(receivedFor("bytes=-300"));
        assertThat(bytesSentFor("bytes=99000-199999"))
                .as("asked for 101000 bytes, 1000 exist")
                .isEqualTo(1000)
                .isEqualTo(receivedFor("bytes=99000-199999"));
    }

    /** The body bytes of one GetObject of key "sized", as the server counted them. */
    private static long bytesSentFor(String range) {
        // A request the client has its answer to may not be recorded yet (receivedFor's GET): let it land first.
        await().atMost(Duration.ofSeconds(10)).until(() -> server.requestLog().inFlight() == 0);
        server.requestLog().clear();
        s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("sized").range(range));
        await().atMost(Duration.ofSeconds(10)).until(() -> server.requestLog().inFlight() == 0);
        RequestSummary summary = server.requestLog().summary();
        assertThat(summary.of(RequestKind.GET_OBJECT).requests()).isEqualTo(1);
        assertThat(summary.total().bytesSent())
                .isEqualTo(summary.of(RequestKind.GET_OBJECT).bytesSent());
        return summary.of(RequestKind.GET_OBJECT).bytesSent();
    }

    private static long receivedFor(String range) {
        return s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("sized").range(range))
                .asByteArray()
                .length;
    }

    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void theSummaryOverHttpIsTheOneInThisJvm() throws Exception {
        s3.putObject(b -> b.bucket(BUCKET).key("summary"), RequestBody.fromBytes(randomBytes(5000, 4)));
        s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("summary").range("bytes=0-99"));
        await().atMost(Duration.ofSeconds(10)).until(() -> server.requestLog().inFlight() == 0);
        HttpClient http = HttpClient.newHttpClient();

        HttpResponse<String> answer = http.send(
                HttpRequest.newBuilder(server.endpoint().resolve("/__flinks3/requests"))
                        .build(),
                BodyHandlers.ofString());

        RequestSummary overHttp = RequestSummary.parse(answer.body());
        assertThat(overHttp).isEqualTo(server.requestLog().summary());
        assertThat(overHttp.of(RequestKind.GET_OBJECT).bytesSent()).isEqualTo(100);
        assertThat(overHttp.of(RequestKind.PUT_OBJECT).requests()).isEqualTo(1);
    }

    @Test
    void countsOnlyServerKeepsNoEntries() throws Exception {
        try (EmbeddedS3Server counting = EmbeddedS3Server.builder()
                        .keepRequestEntries(false)
                        .bucket(BUCKET)
                        .start();
                S3Client client = TestClients.s3(counting)) {
            client.putObject(b -> b.bucket(BUCKET).key("k"), RequestBody.fromString("v"));

            assertThat(counting.requestLog().count(RequestKind.PUT_OBJECT)).isEqualTo(1);
            assertThat(counting.requestLog().entries()).isEmpty();
        }
    }

    @Test
    void objectsPutDirectlyAreServedAndNotLogged() {
        server.putObjectDirectly(BUCKET, "direct/key", "direct".getBytes(StandardCharsets.UTF_8));

        assertThat(server.requestLog().entries()).isEmpty();
        assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("direct/key")).asUtf8String())
                .isEqualTo("direct");
        assertThat(s3.headObject(b -> b.bucket(BUCKET).key("direct/key")).contentLength())
                .isEqualTo(6);
    }

    @Test
    void peakInFlightCountsRequestsServedAtTheSameTime() throws Exception {
        try (EmbeddedS3Server slow = EmbeddedS3Server.builder()
                        .profile(NetworkProfile.wan(Duration.ofMillis(300), 100_000_000L))
                        .bucket(BUCKET)
                        .start();
                S3Client client = TestClients.s3(slow)) {
            client.headBucket(b -> b.bucket(BUCKET));
            assertThat(slow.requestLog().peakInFlight(RequestKind.HEAD_BUCKET)).isEqualTo(1);
            slow.requestLog().clear();

            ExecutorService pool = Executors.newFixedThreadPool(3);
            try {
                List<Future<?>> heads = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    heads.add(pool.submit(() -> client.headBucket(b -> b.bucket(BUCKET))));
                }
                for (Future<?> head : heads) {
                    head.get();
                }
            } finally {
                pool.shutdownNow();
            }

            assertThat(slow.requestLog().peakInFlight(RequestKind.HEAD_BUCKET)).isEqualTo(3);
            assertThat(slow.requestLog().peakInFlight(RequestKind.GET_OBJECT)).isZero();
        }
    }

    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void peakObjectsInFlightCountsDistinctObjectsServedAtTheSameTime() throws Exception {
        try (EmbeddedS3Server slow = EmbeddedS3Server.builder()
                        .profile(NetworkProfile.wan(Duration.ofMillis(300), 100_000_000L))
                        .bucket(BUCKET)
                        .start();
                S3Client client = TestClients.s3(slow)) {
            slow.putObjectDirectly(BUCKET, "one", new byte[10]);
            slow.putObjectDirectly(BUCKET, "two", new byte[10]);
            ExecutorService pool = Executors.newFixedThreadPool(3);
            try {
                List<Future<?>> gets = new ArrayList<>();
                for (String key : List.of("one", "one", "two")) {
                    gets.add(pool.submit(
                            () -> client.getObjectAsBytes(b -> b.bucket(BUCKET).key(key))));
                }
                for (Future<?> get : gets) {
                    get.get();
                }
            } finally {
                pool.shutdownNow();
            }

            assertThat(slow.requestLog().peakInFlight(RequestKind.GET_OBJECT)).isEqualTo(3);
            assertThat(slow.requestLog().peakObjectsInFlight(RequestKind.GET_OBJECT))
                    .isEqualTo(2);
            // a client has its answer a moment before the server records it answered; clear() keeps what is in flight
            await().atMost(Duration.ofSeconds(10)).until(() -> slow.requestLog().inFlight() == 0);
            slow.requestLog().clear();
            assertThat(slow.requestLog().peakObjectsInFlight(RequestKind.GET_OBJECT))
                    .isZero();
        }
    }

    @Test
    void keepsAGivenBaseDirOnClose(@TempDir Path dir) throws Exception {
        Path base = dir.resolve("s3");
        try (EmbeddedS3Server own =
                EmbeddedS3Server.builder().baseDir(base).bucket("kept").start()) {
            assertThat(own.baseDir()).isEqualTo(base);
        }
        assertThat(base.resolve("kept")).isDirectory();
        assertThat(Files.list(base)).isNotEmpty();
    }

    private static byte[] randomBytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
