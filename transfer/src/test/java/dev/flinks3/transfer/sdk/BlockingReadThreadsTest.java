package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.aws.Closer;
import dev.flinks3.transfer.aws.HttpProxies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The threads that run a transport's blocking GETs for read-ahead windows: a GET goes to an idle thread where one
 * waits, so reads that come one at a time keep one thread, not one per read up to the connection maximum (the soak
 * saw 29 of them after seven restores, rising a few per restore); GETs beyond the maximum wait for a thread; none
 * is taken once the clients are closed.
 */
@Timeout(60)
class BlockingReadThreadsTest {

    private static final ClientSettings SETTINGS = ClientSettings.builder()
            .httpClient(ClientSettings.HttpClientType.NETTY)
            .maxConnections(8)
            .build();

    @Test
    void readsOneAtATimeKeepOneThread() throws Exception {
        try (S3Transport transport = new S3Transport()) {
            Closer lease = new Closer();
            ExecutorService threads = transport
                    .httpClients(SETTINGS, HttpProxies.of(SETTINGS), lease)
                    .blockingReads();
            for (int read = 0; read < 20; read++) {
                CompletableFuture<Thread> ranOn = new CompletableFuture<>();
                threads.execute(() -> ranOn.complete(Thread.currentThread()));
                Thread thread = ranOn.get(30, TimeUnit.SECONDS);
                // The thread is back waiting for the next read (or ended): the next read finds it idle.
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> thread.getState() == Thread.State.TIMED_WAITING || !thread.isAlive());
            }

            assertThat(((ThreadPoolExecutor) threads).getLargestPoolSize()).isEqualTo(1);
            lease.close();
        }
    }

    @Test
    void readsBeyondTheMaximumWaitForAThreadAndAllRun() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        try (S3Transport transport = new S3Transport()) {
            Closer lease = new Closer();
            ExecutorService threads = transport
                    .httpClients(SETTINGS, HttpProxies.of(SETTINGS), lease)
                    .blockingReads();
            List<CompletableFuture<Void>> reads = new ArrayList<>();
            for (int read = 0; read < 20; read++) {
                CompletableFuture<Void> done = new CompletableFuture<>();
                reads.add(done);
                threads.execute(() -> {
                    try {
                        release.await(30, TimeUnit.SECONDS);
                        ran.incrementAndGet();
                        done.complete(null);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        done.completeExceptionally(e);
                    }
                });
            }
            ThreadPoolExecutor pool = (ThreadPoolExecutor) threads;
            await().atMost(Duration.ofSeconds(30)).until(() -> pool.getActiveCount() == 8);
            assertThat(pool.getQueue()).hasSize(12);

            release.countDown();
            CompletableFuture.allOf(reads.toArray(new CompletableFuture<?>[0])).get(30, TimeUnit.SECONDS);

            assertThat(ran).hasValue(20);
            assertThat(pool.getLargestPoolSize()).isEqualTo(8);
            lease.close();
            assertThatThrownBy(() -> threads.execute(() -> {})).isInstanceOf(RejectedExecutionException.class);
        } finally {
            release.countDown();
        }
    }
}
