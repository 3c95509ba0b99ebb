package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.aws.Closer;
import dev.flinks3.transfer.aws.HttpProxies;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The blocking-read threads of a transport's HTTP clients: a read still queued when the last lease closes is told
 * it will never run, so its caller fails instead of waiting for ever.
 */
@Timeout(60)
class BlockingReadsShutdownTest {

    @Test
    void aReadStillQueuedWhenTheClientsCloseIsAbandoned() throws Exception {
        ClientSettings settings = ClientSettings.builder()
                .httpClient(ClientSettings.HttpClientType.NETTY)
                .maxConnections(1)
                .build();
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean ran = new AtomicBoolean();
        AtomicBoolean abandoned = new AtomicBoolean();
        try (S3Transport transport = new S3Transport()) {
            Closer lease = new Closer();
            ExecutorService threads = transport
                    .httpClients(settings, HttpProxies.of(settings), lease)
                    .blockingReads();
            // The one thread is busy past the shutdown's wait; the read behind it cannot start.
            threads.execute(() -> {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            threads.execute(new S3Transport.QueuedRead() {
                @Override
                public void run() {
                    ran.set(true);
                }

                @Override
                public void abandon() {
                    abandoned.set(true);
                }
            });

            lease.close();

            assertThat(abandoned).isTrue();
            assertThat(ran).isFalse();
            assertThat(threads.isShutdown()).isTrue();
        } finally {
            release.countDown();
        }
    }
}
