package dev.flinks3.multipart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.InterruptedIOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class UploadBudgetTest {

    private final UploadBudget budget = new UploadBudget(100);

    @Test
    void acquireWaitsForRelease() throws Throwable {
        budget.acquire(80);
        WriterThread waiting = WriterThread.start("acquirer", () -> budget.acquire(30));
        await().atMost(Duration.ofSeconds(10)).until(waiting::isWaiting);
        assertThat(budget.heldBytes()).isEqualTo(80);

        budget.release(80);
        waiting.join();
        assertThat(budget.heldBytes()).isEqualTo(30);
        assertThat(budget.peakHeldBytes()).isEqualTo(80);
    }

    @Test
    void interruptedAcquireTakesNothing() throws Throwable {
        budget.acquire(100);
        WriterThread waiting = WriterThread.start("acquirer", () -> budget.acquire(1));
        await().atMost(Duration.ofSeconds(10)).until(waiting::isWaiting);

        waiting.interrupt();
        assertThatThrownBy(waiting::join).isInstanceOf(InterruptedIOException.class);
        budget.release(100);
        assertThat(budget.heldBytes()).isZero();
    }

    @Test
    void tryAcquireNeverExceedsTheLimit() {
        assertThat(budget.tryAcquire(60)).isTrue();
        assertThat(budget.tryAcquire(41)).isFalse();
        assertThat(budget.tryAcquire(40)).isTrue();
        assertThat(budget.heldBytes()).isEqualTo(100);
    }

    @Test
    void requestsThatCanNeverBeGrantedFailAtOnce() {
        assertThatThrownBy(() -> budget.acquire(101)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> budget.release(1)).isInstanceOf(IllegalStateException.class);
    }
}
