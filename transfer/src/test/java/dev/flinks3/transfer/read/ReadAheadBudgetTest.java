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
    void walksAreBoundedAndGivenBack() {
        ReadAheadBudget twoWalks = new ReadAheadBudget(0, 2);
        PositionalReads owner = new PositionalReads(null, null, null, null, twoWalks);

        assertThat(twoWalks.tryOpenWalk(owner)).isTrue();
        assertThat(twoWalks.tryOpenWalk(owner)).isTrue();
        assertThat(twoWalks.tryOpenWalk(owner)).as("a third walk, none idle").isFalse();
        twoWalks.walkClosed();
        assertThat(twoWalks.openWalks()).isEqualTo(1);
        assertThat(twoWalks.tryOpenWalk(owner)).isTrue();
        twoWalks.walkClosed();
        twoWalks.walkClosed();
        assertThatThrownBy(twoWalks::walkClosed).isInstanceOf(IllegalStateException.class);
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
