package dev.flinks3.bench.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CpuPinningTest {

    @Test
    void theServerGetsTheLastCoreAndTheContendersTheOthers() {
        CpuPinning two = CpuPinning.of(true, 2, true);
        assertThat(two.pinned()).isTrue();
        assertThat(two.serverCommandPrefix()).containsExactly("/usr/bin/taskset", "-c", "1");
        assertThat(two.clientCommandPrefix()).containsExactly("/usr/bin/taskset", "-c", "0");
        assertThat(CpuPinning.of(true, 8, true).clientCommandPrefix()).containsExactly("/usr/bin/taskset", "-c", "0-6");
        assertThat(two.describe()).isEqualTo("S3 server pinned to CPU 1, contenders to CPU 0 (taskset)");
    }

    @Test
    void nothingIsPinnedOnOneCoreWithoutTasksetOrWhenSwitchedOffAndTheReportSaysWhy() {
        for (CpuPinning none :
                List.of(CpuPinning.of(true, 1, true), CpuPinning.of(true, 4, false), CpuPinning.of(false, 4, true))) {
            assertThat(none.pinned()).isFalse();
            assertThat(none.clientCommandPrefix()).isEmpty();
            assertThat(none.serverCommandPrefix()).isEmpty();
        }
        assertThat(CpuPinning.of(true, 1, true).describe()).isEqualTo("not pinned: one core");
        assertThat(CpuPinning.of(true, 4, false).describe()).isEqualTo("not pinned: no /usr/bin/taskset");
        assertThat(CpuPinning.of(false, 4, true).describe()).isEqualTo("not pinned (--pin-cpus=false)");
    }
}
