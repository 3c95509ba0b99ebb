package dev.flinks3.multipart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

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
    void partsAreCappedAtOneGibibyteOfHeap() {
        PartSizing sizing = new PartSizing(5L * 1024 * MIB, 64L * 1024 * MIB, 4);

        assertThat(sizing.basePartBytes()).isEqualTo(1024 * MIB);
        assertThat(sizing.partBytes(10_000)).isEqualTo(1024 * MIB);
    }

    @Test
    void partNumbersOutsideS3sRangeAreRejected() {
        PartSizing sizing = new PartSizing(5 * MIB, 64 * MIB, 4);

        assertThatThrownBy(() -> sizing.partBytes(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> sizing.partBytes(10_001)).isInstanceOf(IllegalArgumentException.class);
    }
}
