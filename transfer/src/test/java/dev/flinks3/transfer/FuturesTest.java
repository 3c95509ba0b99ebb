package dev.flinks3.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The waits of {@link Futures}: what an interrupt of the waiting thread does. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FuturesTest {

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void awaitStopsAtAnInterruptAndCancels() {
        CompletableFuture<String> never = new CompletableFuture<>();
        Thread.currentThread().interrupt();

        assertThatThrownBy(() -> Futures.await(never, "UploadPart", "s3://b/k"))
                .isInstanceOf(InterruptedIOException.class)
                .hasMessageContaining("UploadPart of s3://b/k");
        assertThat(never).isCancelled();
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
    }

    @Test
    void anInterruptedThreadSendsWithItsFlagClearedAndGetsTheAnswer() throws IOException {
        Thread.currentThread().interrupt();
        boolean[] interruptedWhileSending = {true};

        String answer = Futures.awaitDespiteInterrupt(
                () -> {
                    interruptedWhileSending[0] = Thread.currentThread().isInterrupted();
                    return CompletableFuture.supplyAsync(
                            () -> "etag", CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS));
                },
                Duration.ofSeconds(20),
                "HeadObject",
                "s3://b/k",
                IOException::new);

        assertThat(answer).isEqualTo("etag");
        assertThat(interruptedWhileSending[0]).as("flag while sending").isFalse();
        assertThat(Thread.currentThread().isInterrupted()).as("flag after").isTrue();
    }

    @Test
    void aFailureAfterTheInterruptIsTranslatedAndKeepsTheFlag() {
        Thread.currentThread().interrupt();

        assertThatThrownBy(() -> Futures.<String>awaitDespiteInterrupt(
                        () -> CompletableFuture.failedFuture(new IllegalStateException("no such key")),
                        Duration.ofSeconds(20),
                        "HeadObject",
                        "s3://b/k",
                        cause -> new IOException("translated: " + cause.getMessage())))
                .isInstanceOf(IOException.class)
                .hasMessage("translated: no such key");
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
    }

    @Test
    void noAnswerWithinTheGraceCancelsTheRequest() {
        CompletableFuture<String> never = new CompletableFuture<>();
        Thread.currentThread().interrupt();

        assertThatThrownBy(() -> Futures.awaitDespiteInterrupt(
                        () -> never, Duration.ofMillis(200), "HeadObject", "s3://b/k", IOException::new))
                .isInstanceOf(InterruptedIOException.class)
                .hasMessageContaining("no answer came within 200 ms");
        assertThat(never).isCancelled();
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
    }

    @Test
    void withoutAnInterruptItWaitsAsAwaitDoes() throws IOException {
        assertThat(Futures.awaitDespiteInterrupt(
                        () -> CompletableFuture.completedFuture(7),
                        Duration.ZERO,
                        "ListParts",
                        "s3://b/k",
                        IOException::new))
                .isEqualTo(7);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }
}
