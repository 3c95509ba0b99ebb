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
    void acquireWaitsForBytesInFlight() throws Throwable {
        budget.acquire(80);
        budget.markInFlight(80);
        WriterThread waiting = WriterThread.start("acquirer", () -> budget.acquire(30));
        await().atMost(Duration.ofSeconds(10)).until(waiting::isWaiting);
        assertThat(budget.heldBytes()).isEqualTo(80);

        budget.release(80, true);
        waiting.join();
        assertThat(budget.heldBytes()).isEqualTo(30);
        assertThat(budget.inFlightBytes()).isZero();
        assertThat(budget.peakHeldBytes()).isEqualTo(80);
        assertThat(budget.overcommittedGrants()).isZero();
    }

    @Test
    void closingWaitsForPartsInFlightUntilTheyComeBackOrTheTimeRunsOut() throws Throwable {
        assertThat(budget.awaitNothingInFlight(0)).isTrue();
        budget.acquire(50);
        budget.markInFlight(50);
        assertThat(budget.awaitNothingInFlight(20))
                .as("nothing came back within 20 ms")
                .isFalse();

        boolean[] drained = new boolean[1];
        WriterThread closing = WriterThread.start("closer", () -> drained[0] = budget.awaitNothingInFlight(60_000));
        await().atMost(Duration.ofSeconds(10)).until(closing::isWaiting);
        budget.release(50, true);
        closing.join();
        assertThat(drained[0]).isTrue();
    }

    @Test
    void withNothingInFlightAcquireGrantsBeyondTheLimitInsteadOfWaitingForever() throws Exception {
        budget.acquire(80);
        budget.acquire(30);
        assertThat(budget.heldBytes()).isEqualTo(110);
        assertThat(budget.overcommittedGrants()).isEqualTo(1);
    }

    @Test
    void waitingEndsWhenTheLastBytesInFlightComeBackEvenIfTooFewForTheLimit() throws Throwable {
        budget.acquire(70);
        budget.acquire(20);
        budget.markInFlight(20);
        WriterThread waiting = WriterThread.start("acquirer", () -> budget.acquire(50));
        await().atMost(Duration.ofSeconds(10)).until(waiting::isWaiting);

        budget.release(20, true);
        waiting.join();
        assertThat(budget.heldBytes()).isEqualTo(120);
        assertThat(budget.overcommittedGrants()).isEqualTo(1);
    }

    @Test
    void interruptedAcquireTakesNothing() throws Throwable {
        budget.acquire(100);
        budget.markInFlight(100);
        WriterThread waiting = WriterThread.start("acquirer", () -> budget.acquire(1));
        await().atMost(Duration.ofSeconds(10)).until(waiting::isWaiting);

        waiting.interrupt();
        assertThatThrownBy(waiting::join).isInstanceOf(InterruptedIOException.class);
        budget.release(100, true);
        assertThat(budget.heldBytes()).isZero();
    }

    @Test
    void requestsThatCanNeverBeGrantedFailAtOnce() {
        assertThatThrownBy(() -> budget.acquire(101)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> budget.release(1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> budget.markInFlight(1)).isInstanceOf(IllegalStateException.class);
    }
}
