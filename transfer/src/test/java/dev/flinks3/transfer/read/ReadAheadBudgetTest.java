package dev.flinks3.transfer.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ReadAheadBudgetTest {

    private final ReadAheadBudget budget = new ReadAheadBudget(100);

    @Test
    void grantsWhatFitsAndNeverASingleWindow() {
        assertThat(budget.tryAcquire(8, 10)).isEqualTo(8);
        assertThat(budget.tryAcquire(8, 10)).isEqualTo(2);
        assertThat(budget.tryAcquire(8, 10)).isZero();
        assertThat(budget.heldBytes()).isEqualTo(100);

        budget.release(2, 10);
        assertThat(budget.tryAcquire(1, 10)).isZero();
        assertThat(budget.tryAcquire(4, 5)).isEqualTo(4);
        assertThat(budget.heldBytes()).isEqualTo(100);
    }

    @Test
    void aSingleBufferIsTakenWholeOrNotAtAll() {
        assertThat(budget.tryAcquire(6, 10)).isEqualTo(6);
        assertThat(budget.tryAcquireBuffer(41)).isFalse();
        assertThat(budget.tryAcquireBuffer(40)).isTrue();
        assertThat(budget.heldBytes()).isEqualTo(100);
        assertThat(budget.tryAcquireBuffer(1)).isFalse();

        budget.release(1, 40);
        assertThat(budget.heldBytes()).isEqualTo(60);
        assertThatThrownBy(() -> budget.tryAcquireBuffer(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void thePeakIsTheMostEverHeldAtOnce() {
        budget.tryAcquire(6, 10);
        budget.release(6, 10);
        budget.tryAcquire(3, 10);

        assertThat(budget.peakHeldBytes()).isEqualTo(60);
        assertThat(budget.heldBytes()).isEqualTo(30);
    }

    @Test
    void givingBackMoreThanHeldIsAnError() {
        budget.tryAcquire(2, 10);
        assertThatThrownBy(() -> budget.release(3, 10)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new ReadAheadBudget(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
