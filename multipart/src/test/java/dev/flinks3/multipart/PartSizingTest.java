package dev.flinks3.multipart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PartSizingTest {

    private static final long MIB = 1024 * 1024;

    @Test
    void partsDoubleEveryStepUpToWhatTheBudgetHoldsPerStream() {
        PartSizing sizing = new PartSizing(16 * MIB, 1024 * MIB, 4);

        assertThat(sizing.partBytes(1)).isEqualTo(16 * MIB);
        assertThat(sizing.partBytes(2_000)).isEqualTo(16 * MIB);
        assertThat(sizing.partBytes(2_001)).isEqualTo(32 * MIB);
        assertThat(sizing.partBytes(6_001)).isEqualTo(128 * MIB);
        assertThat(sizing.partBytes(10_000)).isEqualTo(1024 * MIB / 5);
        assertThat(sizing.maxObjectBytes()).isEqualTo(2_000 * (16 + 32 + 64 + 128) * MIB + 2_000 * (1024 * MIB / 5));
        assertThat(sizing.maxObjectBytes()).isGreaterThan(10_000L * 16 * MIB);
    }

    @Test
    void uniformPartsNeverGrow() {
        PartSizing sizing = new PartSizing(16 * MIB, 1024 * MIB, 4, true);

        assertThat(sizing.uniform()).isTrue();
        assertThat(sizing.partBytes(2_001)).isEqualTo(16 * MIB);
        assertThat(sizing.partBytes(10_000)).isEqualTo(16 * MIB);
        assertThat(sizing.maxObjectBytes()).isEqualTo(10_000L * 16 * MIB);
        assertThat(new PartSizing(5 * MIB, 15 * MIB, 4).uniform())
                .as("a part size that cannot grow is not the uniform mode")
                .isFalse();
    }

    @Test
    void aTightBudgetKeepsThePartSizeFixed() {
        PartSizing sizing = new PartSizing(5 * MIB, 15 * MIB, 4);

        assertThat(sizing.partBytes(10_000)).isEqualTo(5 * MIB);
        assertThat(sizing.maxObjectBytes()).isEqualTo(10_000L * 5 * MIB);
    }

    @Test
    void grownPartsAreCappedAtOneGibibyteOfHeap() {
        PartSizing sizing = new PartSizing(512 * MIB, 64L * 1024 * MIB, 4);

        assertThat(sizing.basePartBytes()).isEqualTo(512 * MIB);
        assertThat(sizing.partBytes(2_001)).isEqualTo(1024 * MIB);
        assertThat(sizing.partBytes(10_000)).isEqualTo(1024 * MIB);
        assertThat(sizing.largestPartBytes()).isEqualTo(1024 * MIB);
    }

    @Test
    void aPartSizeTheEngineCannotBufferIsRefusedNotCapped() {
        assertThat(new PartSizing(1024 * MIB, 1024 * MIB, 4).basePartBytes()).isEqualTo(1024 * MIB);
        assertThatThrownBy(() -> new PartSizing(1024 * MIB + 1, 64L * 1024 * MIB, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("part size 1073741825 bytes is outside 1..1073741824 bytes");
        assertThatThrownBy(() -> new PartSizing(5L * 1024 * MIB, 64L * 1024 * MIB, 4, true))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theLargestPartIsTheCeilingOrWithUniformPartsTheBase() {
        assertThat(new PartSizing(8 * MIB, 1024 * MIB, 8).largestPartBytes()).isEqualTo(1024 * MIB / 9);
        assertThat(new PartSizing(8 * MIB, 1024 * MIB, 8, true).largestPartBytes())
                .isEqualTo(8 * MIB);
        assertThat(new PartSizing(64 * MIB, 128 * MIB, 8).largestPartBytes())
                .as("a budget too small to grow keeps the base")
                .isEqualTo(64 * MIB);
    }

    @Test
    void grownPartsStayWithinTheGivenCeilingButNotBelowTheBase() {
        PartSizing sizing = new PartSizing(8 * MIB, 4096 * MIB, 7, false, 120 * MIB);

        assertThat(sizing.partBytes(8_001)).isEqualTo(120 * MIB);
        assertThat(sizing.largestPartBytes()).isEqualTo(120 * MIB);
        assertThat(new PartSizing(8 * MIB, 4096 * MIB, 7, false, 5 * MIB).partBytes(10_000))
                .isEqualTo(8 * MIB);
    }

    @Test
    void partNumbersOutsideS3sRangeAreRejected() {
        PartSizing sizing = new PartSizing(5 * MIB, 64 * MIB, 4);

        assertThatThrownBy(() -> sizing.partBytes(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> sizing.partBytes(10_001)).isInstanceOf(IllegalArgumentException.class);
    }
}
