package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.GetRequest;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.ObjectMetadata;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.TestSettings;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.WriteCondition;
import java.io.FileNotFoundException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What an interrupt of the calling thread does to a request at the HTTP boundary: a short metadata request
 * (HEAD, a listing, ListParts, ListMultipartUploads, DeleteObject) finishes and gives its real answer, with
 * the interrupt flag set again; a transfer of data (UploadPart, a GET body) stops at once. Flink cancels a task
 * by interrupting its threads, and ForSt runs its file deletions, which call these metadata requests, from
 * native code that an exception leaves unfinished. The server holds each answer until the test has
 * interrupted the caller. On each client the plugin offers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InterruptedCallsS3ProxyTest {

    private static final String BUCKET = "interrupts";

    /** The clients the plugin offers: the SDK client on either HTTP client, and the CRT-based S3 client. */
    enum Client {
        SDK_NETTY(ClientSettings.ClientType.SDK, ClientSettings.HttpClientType.NETTY),
        SDK_CRT_HTTP(ClientSettings.ClientType.SDK, ClientSettings.HttpClientType.CRT),
        CRT_S3_CLIENT(ClientSettings.ClientType.CRT, ClientSettings.HttpClientType.CRT);

        final ClientSettings.ClientType type;
        final ClientSettings.HttpClientType http;

        Client(ClientSettings.ClientType type, ClientSettings.HttpClientType http) {
            this.type = type;
            this.http = http;
        }
    }

    private final Map<Client, S3ClientOwner> owners = new EnumMap<>(Client.class);
    private final AtomicInteger keys = new AtomicInteger();
    private final List<CountDownLatch> releases = new ArrayList<>();
    private EmbeddedS3Server server;

    @BeforeAll
    void start() {
        server = EmbeddedS3Server.builder().bucket(BUCKET).start();
        for (Client client : Client.values()) {
            owners.put(
                    client,
                    new S3ClientOwner(
                            TestSettings.forServer(server, client.http)
                                    .client(c -> c.client(client.type))
                                    .build(),
                            UploadSettings.MIN_PART_SIZE,
                            UploadSettings.MIN_PART_SIZE));
        }
    }

    @AfterEach
    void releaseHeldAnswers() {
        releases.forEach(CountDownLatch::countDown);
        releases.clear();
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
    @EnumSource(Client.class)
    void anInterruptedHeadGetsItsRealAnswerAndKeepsTheFlag(Client kind) throws Exception {
        ObjectClient client = owners.get(kind).objectClient();
        S3Location location = newLocation(kind);
        client.put(location, ByteBuffer.allocate(1234), WriteCondition.NONE).join();
        Hold hold = hold(RequestKind.HEAD_OBJECT);

        Caller<ObjectMetadata> head = Caller.start(() -> client.head(location));
        hold.arrived();
        head.thread.interrupt();
        // The HEAD stays at the server, its caller waiting, until the answer comes.
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(head.thread::isAlive);
        hold.release();

        head.finish();
        assertThat(head.failure).isNull();
        assertThat(head.value.length()).isEqualTo(1234);
        assertThat(head.interruptedAfter)
                .as("the interrupt flag after the call")
                .isTrue();
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void anInterruptedHeadOfAMissingKeyStillSaysFileNotFound(Client kind) throws Exception {
        ObjectClient client = owners.get(kind).objectClient();
        S3Location location = newLocation(kind);
        Hold hold = hold(RequestKind.HEAD_OBJECT);

        Caller<ObjectMetadata> head = Caller.start(() -> client.head(location));
        hold.arrived();
        head.thread.interrupt();
        hold.release();

        head.finish();
        assertThat(head.failure).isInstanceOf(FileNotFoundException.class);
        assertThat(head.interruptedAfter).isTrue();
    }

    /** As ForSt's native file deletions call the filesystem: on a thread whose interrupt flag is already set. */
    @ParameterizedTest
    @EnumSource(Client.class)
    void metadataCallsOnAnAlreadyInterruptedThreadAnswerAndKeepTheFlag(Client kind) throws Exception {
        ObjectClient client = owners.get(kind).objectClient();
        S3Location location = newLocation(kind);
        client.put(location, ByteBuffer.allocate(10), WriteCondition.NONE).join();
        S3Location upload = newLocation(kind);
        String uploadId = client.createMultipartUpload(upload).join();
        try {
            Caller<List<Object>> calls = Caller.start(() -> {
                Thread.currentThread().interrupt();
                List<Object> answers = new ArrayList<>();
                answers.add(client.head(location).length());
                answers.add(client.list(BUCKET, location.key(), "/", null, 10)
                        .objects()
                        .size());
                answers.add(client.listParts(upload, uploadId).size());
                answers.add(client.listMultipartUploads(BUCKET, upload.key()).size());
                client.delete(location);
                answers.add(Thread.currentThread().isInterrupted());
                return answers;
            });

            calls.finish();
            if (calls.failure != null) {
                throw new AssertionError("a call failed", calls.failure);
            }
            assertThat(calls.value).containsExactly(10L, 1, 0, 1, true);
            assertThat(calls.interruptedAfter).isTrue();
            assertThatThrownBy(() -> client.head(location)).isInstanceOf(FileNotFoundException.class);
        } finally {
            client.abortMultipartUpload(upload, uploadId).join();
        }
    }

    /**
     * Flink closes a cancelled checkpoint stream on the thread it interrupted: the abort of its upload is sent
     * from there and must reach the server, or the upload stays open there for good.
     */
    @ParameterizedTest
    @EnumSource(Client.class)
    void anAbortSentFromAnInterruptedThreadReachesTheServer(Client kind) throws Exception {
        ObjectClient client = owners.get(kind).objectClient();
        S3Location location = newLocation(kind);
        String uploadId = client.createMultipartUpload(location).join();

        Caller<Boolean> abort = Caller.start(() -> {
            Thread.currentThread().interrupt();
            CompletableFuture<Void> sent = client.abortMultipartUpload(location, uploadId);
            boolean flagKept = Thread.interrupted();
            sent.get(20, TimeUnit.SECONDS);
            return flagKept;
        });

        abort.finish();
        if (abort.failure != null) {
            throw new AssertionError("the abort failed", abort.failure);
        }
        assertThat(abort.value).as("the interrupt flag after sending").isTrue();
        assertThat(client.listMultipartUploads(BUCKET, location.key())).isEmpty();
    }

    /**
     * A multipart copy (a ForSt checkpoint's files copied at the server) cancelled from the thread Flink interrupted:
     * the cancel runs the copy's abort on that thread, and the abort must reach the server.
     */
    @ParameterizedTest
    @EnumSource(Client.class)
    void aMultipartCopyCancelledFromAnInterruptedThreadAbortsItsUpload(Client kind) throws Exception {
        ObjectClient client = owners.get(kind).objectClient();
        S3Location source = newLocation(kind);
        int length = (int) UploadSettings.MIN_PART_SIZE + 1;
        client.put(source, ByteBuffer.allocate(length), WriteCondition.NONE).join();
        S3Location target = newLocation(kind);
        Hold hold = hold(RequestKind.UPLOAD_PART_COPY);

        CompletableFuture<Void> copy = client.copy(source, target, length);
        hold.arrived();
        assertThat(client.listMultipartUploads(BUCKET, target.key())).hasSize(1);
        Caller<Boolean> cancel = Caller.start(() -> {
            Thread.currentThread().interrupt();
            copy.cancel(true);
            return Thread.interrupted();
        });
        cancel.finish();
        hold.release();

        await().atMost(Duration.ofSeconds(20))
                .alias("the copy's upload is aborted")
                .until(() -> client.listMultipartUploads(BUCKET, target.key()).isEmpty());
        assertThat(cancel.value).as("the interrupt flag after cancelling").isTrue();
        assertThatThrownBy(() -> client.head(target)).isInstanceOf(FileNotFoundException.class);
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void anInterruptedPartUploadStopsAtOnce(Client kind) throws Exception {
        ObjectClient client = owners.get(kind).objectClient();
        S3Location location = newLocation(kind);
        String uploadId = client.createMultipartUpload(location).join();
        try {
            Hold hold = hold(RequestKind.UPLOAD_PART);

            Caller<CompletedPart> part = Caller.start(() -> Futures.await(
                    client.uploadPart(location, uploadId, 1, ByteBuffer.allocate((int) UploadSettings.MIN_PART_SIZE)),
                    "UploadPart",
                    location));
            hold.arrived();
            part.thread.interrupt();

            // The server still holds the part: the caller returns without its answer.
            part.finish();
            assertThat(hold.released()).isFalse();
            assertThat(part.failure).isInstanceOf(InterruptedIOException.class);
            assertThat(part.interruptedAfter).isTrue();
        } finally {
            releaseHeldAnswers();
            client.abortMultipartUpload(location, uploadId).join();
        }
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void anInterruptedGetStopsAtOnce(Client kind) throws Exception {
        ObjectClient client = owners.get(kind).objectClient();
        S3Location location = newLocation(kind);
        client.put(location, ByteBuffer.allocate(100_000), WriteCondition.NONE).join();
        Hold hold = hold(RequestKind.GET_OBJECT);

        Caller<Long> get = Caller.start(() -> Futures.await(
                        client.get(GetRequest.into(location, 0, ByteBuffer.allocate(100_000))), "GetObject", location)
                .bytes());
        hold.arrived();
        get.thread.interrupt();

        get.finish();
        assertThat(hold.released()).isFalse();
        assertThat(get.failure).isInstanceOf(InterruptedIOException.class);
        assertThat(get.interruptedAfter).isTrue();
    }

    private S3Location newLocation(Client kind) {
        return S3Location.of("s3", BUCKET, kind + "/object-" + keys.incrementAndGet());
    }

    /**
     * Holds the next request of {@code kind} at the server, before S3Proxy serves it, until {@link
     * Hold#release()} (or the end of the test).
     */
    private Hold hold(RequestKind kind) {
        Hold hold = new Hold();
        releases.add(hold.release);
        server.answers().rewrite(kind, request -> hold.take(), 1, (request, served) -> served);
        return hold;
    }

    /** One held request: its arrival at the server and its release. */
    private static final class Hold {
        private final CountDownLatch arrival = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        private final AtomicBoolean taken = new AtomicBoolean();

        /** Runs on the server's thread: holds the first request, then lets S3Proxy serve it unchanged. */
        boolean take() {
            if (!taken.compareAndSet(false, true)) {
                return false;
            }
            arrival.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        }

        void arrived() throws InterruptedException {
            assertThat(arrival.await(20, TimeUnit.SECONDS))
                    .as("the request reached the server")
                    .isTrue();
        }

        void release() {
            release.countDown();
        }

        boolean released() {
            return release.getCount() == 0;
        }
    }

    /** A blocking call on a thread of its own: its value or failure, and its interrupt flag afterwards. */
    private static final class Caller<T> {
        interface Call<T> {
            T run() throws Exception;
        }

        final Thread thread;
        volatile T value;
        volatile Throwable failure;
        volatile boolean interruptedAfter;

        private Caller(Call<T> call) {
            thread = new Thread(
                    () -> {
                        try {
                            value = call.run();
                        } catch (Throwable t) {
                            failure = t;
                        }
                        interruptedAfter = Thread.currentThread().isInterrupted();
                    },
                    "interrupted-caller");
        }

        static <T> Caller<T> start(Call<T> call) {
            Caller<T> caller = new Caller<>(call);
            caller.thread.start();
            return caller;
        }

        void finish() throws InterruptedException {
            thread.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(thread.isAlive()).as("the call returned").isFalse();
        }
    }
}
