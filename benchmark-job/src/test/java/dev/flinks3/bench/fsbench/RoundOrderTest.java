package dev.flinks3.bench.fsbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RoundOrderTest {

    private static final List<String> GIVEN = List.of("ours", "native", "presto", "hadoop");

    @Test
    void oddRoundsKeepTheGivenOrder() {
        assertThat(RoundOrder.of(GIVEN, 1)).containsExactly("ours", "native", "presto", "hadoop");
        assertThat(RoundOrder.of(GIVEN, 3)).containsExactly("ours", "native", "presto", "hadoop");
    }

    @Test
    void evenRoundsReverseIt() {
        assertThat(RoundOrder.of(GIVEN, 2)).containsExactly("hadoop", "presto", "native", "ours");
        assertThat(RoundOrder.of(GIVEN, 4)).containsExactly("hadoop", "presto", "native", "ours");
    }

    @Test
    void theGivenListIsNotChanged() {
        List<String> given = new java.util.ArrayList<>(GIVEN);
        RoundOrder.of(given, 2);
        assertThat(given).isEqualTo(GIVEN);
    }

    @Test
    void roundsAreNumberedFromOne() {
        assertThatThrownBy(() -> RoundOrder.of(GIVEN, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
