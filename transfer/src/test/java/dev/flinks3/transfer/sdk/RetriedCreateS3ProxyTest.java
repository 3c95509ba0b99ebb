package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flinks3.testserver.AnswerRewriteFilter.Answer;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.PendingUpload;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.TestSettings;
import dev.flinks3.transfer.UploadSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/**
 * A CreateMultipartUpload whose answer is lost after the server made the upload (here: S3Proxy serves it and the
 * answer is rewritten to a 500, so the SDK retries) leaves no second upload behind: the upload the lost answer
 * named is aborted, the one returned is kept. Before, every such retry left an upload open at the server for
 * good. On the SDK client with either HTTP client; the CRT-based S3 client retries in native code, where the
 * plugin cannot count the attempts (a known gap, said in docs/operations.md).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RetriedCreateS3ProxyTest {

    private static final String BUCKET = "retried-creates";

    enum Http {
        NETTY(ClientSettings.HttpClientType.NETTY),
        CRT(ClientSettings.HttpClientType.CRT);

        final ClientSettings.HttpClientType type;

        Http(ClientSettings.HttpClientType type) {
            this.type = type;
        }
    }

    private final Map<Http, S3ClientOwner> owners = new EnumMap<>(Http.class);
    private final AtomicInteger keys = new AtomicInteger();
    private EmbeddedS3Server server;

    @BeforeAll
    void start() {
        server = EmbeddedS3Server.builder().bucket(BUCKET).start();
        for (Http http : Http.values()) {
            owners.put(
                    http,
                    new S3ClientOwner(
                            TestSettings.forServer(server, http.type).build(),
                            UploadSettings.MIN_PART_SIZE,
                            UploadSettings.MIN_PART_SIZE));
        }
    }

    @AfterEach
    void clearRules() {
        server.answers().clear();
    }

    @AfterAll
    void stop() throws Exception {
        try (EmbeddedS3Server stopping = server) {
            for (S3ClientOwner owner : owners.values()) {
                owner.close();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Http.class)
    void anUploadWhoseAnswerWasLostIsAbortedAndTheReturnedOneKept(Http http) throws Exception {
        ObjectClient client = owners.get(http).objectClient();
        S3Location location = S3Location.of("s3", BUCKET, http + "/lost-answer-" + keys.incrementAndGet());
        server.answers()
                .rewrite(
                        RequestKind.CREATE_MULTIPART_UPLOAD,
                        request -> true,
                        1,
                        (request, served) -> Answer.error(500, "InternalError", "the answer was lost"));

        String uploadId = client.createMultipartUpload(location).get(20, TimeUnit.SECONDS);

        await().atMost(Duration.ofSeconds(20))
                .alias("only the returned upload is open at the server")
                .until(() -> uploadIds(client, location), ids -> ids.equals(List.of(uploadId)));
        client.abortMultipartUpload(location, uploadId).get(20, TimeUnit.SECONDS);
    }

    /**
     * The first attempt is held at the server past the attempt timeout and served only after the retry answered,
     * so the upload it makes appears after the first listing: the late listing aborts it.
     */
    @ParameterizedTest
    @EnumSource(Http.class)
    void anUploadMadeByAnAttemptServedAfterTheRetryIsAbortedToo(Http http) throws Exception {
        S3Location location = S3Location.of("s3", BUCKET, http + "/served-late-" + keys.incrementAndGet());
        CountDownLatch arrived = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean held = new AtomicBoolean();
        server.answers()
                .rewrite(
                        RequestKind.CREATE_MULTIPART_UPLOAD,
                        request -> {
                            if (held.compareAndSet(false, true)) {
                                arrived.countDown();
                                awaitQuietly(release);
                            }
                            return false; // served unchanged, once released
                        },
                        1,
                        (request, served) -> served);
        try (S3ClientOwner owner = new S3ClientOwner(
                TestSettings.forServer(server, http.type)
                        .client(c -> c.apiCallAttemptTimeout(Duration.ofSeconds(1)))
                        .build(),
                UploadSettings.MIN_PART_SIZE,
                UploadSettings.MIN_PART_SIZE)) {
            ObjectClient client = owner.objectClient();

            String uploadId = client.createMultipartUpload(location).get(20, TimeUnit.SECONDS);
            assertThat(arrived.getCount())
                    .as("the first attempt reached the server")
                    .isZero();
            release.countDown();
            await().atMost(Duration.ofSeconds(20))
                    .alias("the held attempt's upload exists")
                    .until(() -> server.requestLog().count(RequestKind.LIST_MULTIPART_UPLOADS) > 0);

            await().atMost(Duration.ofSeconds(20))
                    .alias("only the returned upload is open at the server")
                    .until(() -> uploadIds(client, location), ids -> ids.equals(List.of(uploadId)));
            assertThat(server.requestLog().count(RequestKind.ABORT_MULTIPART_UPLOAD))
                    .as("the held attempt's upload was aborted")
                    .isPositive();
            client.abortMultipartUpload(location, uploadId).get(20, TimeUnit.SECONDS);
        } finally {
            release.countDown();
        }
    }

    @ParameterizedTest
    @EnumSource(Http.class)
    void aCreateAnsweredAtOnceListsNothing(Http http) throws Exception {
        ObjectClient client = owners.get(http).objectClient();
        S3Location location = S3Location.of("s3", BUCKET, http + "/answered-" + keys.incrementAndGet());
        long listingsBefore = server.requestLog().count(RequestKind.LIST_MULTIPART_UPLOADS);

        String uploadId = client.createMultipartUpload(location).get(20, TimeUnit.SECONDS);

        assertThat(uploadIds(client, location)).containsExactly(uploadId);
        assertThat(server.requestLog().count(RequestKind.LIST_MULTIPART_UPLOADS) - listingsBefore)
                .as("listings: only the test's own")
                .isEqualTo(1);
        client.abortMultipartUpload(location, uploadId).get(20, TimeUnit.SECONDS);
    }

    /** The window: only uploads of exactly the key, other than the one kept, initiated during the attempts. */
    @Test
    void onlyOtherUploadsOfTheSameKeyInitiatedDuringTheAttemptsAreDuplicates() {
        ListMultipartUploadsResponse page = ListMultipartUploadsResponse.builder()
                .uploads(
                        upload("dir/key", "kept", 1_000),
                        upload("dir/key", "lost-answer", 1_000),
                        upload("dir/key", "older-writer", 400),
                        upload("dir/key", "later-writer", 2_600),
                        upload("dir/key-2", "other-key", 1_000),
                        MultipartUpload.builder()
                                .key("dir/key")
                                .uploadId("no-date")
                                .build())
                .build();

        assertThat(RetriedCreates.duplicates(page, "dir/key", "kept", 500, 2_500))
                .containsExactly("lost-answer");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static MultipartUpload upload(String key, String uploadId, long initiatedMillis) {
        return MultipartUpload.builder()
                .key(key)
                .uploadId(uploadId)
                .initiated(Instant.ofEpochMilli(initiatedMillis))
                .build();
    }

    private static List<String> uploadIds(ObjectClient client, S3Location location) throws Exception {
        return client.listMultipartUploads(BUCKET, location.key()).stream()
                .filter(upload -> upload.key().equals(location.key()))
                .map(PendingUpload::uploadId)
                .collect(Collectors.toList());
    }
}
