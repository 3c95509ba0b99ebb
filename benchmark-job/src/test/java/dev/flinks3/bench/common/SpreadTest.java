package dev.flinks3.bench.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpreadTest {

    @Test
    void meanMinAndMaxOfTheRounds() {
        Spread spread = Spread.of(List.of(40.0, 50.0, 60.0));

        assertThat(spread.mean()).isCloseTo(50.0, within(1e-9));
        assertThat(spread.min()).isEqualTo(40.0);
        assertThat(spread.max()).isEqualTo(60.0);
        assertThat(spread.count()).isEqualTo(3);
    }

    @Test
    void roundsWithinAQuarterOfEachOtherAreNotFlagged() {
        assertThat(Spread.of(List.of(100.0, 125.0)).flagged()).isFalse();
        assertThat(Spread.of(List.of(100.0, 125.0)).maxOverMin()).isCloseTo(1.25, within(1e-9));
    }

    @Test
    void roundsMoreThanAQuarterApartAreFlagged() {
        assertThat(Spread.of(List.of(100.0, 126.0)).flagged()).isTrue();
    }

    @Test
    void aSingleRoundOrEqualZerosIsStable() {
        assertThat(Spread.of(List.of(7.0)).flagged()).isFalse();
        assertThat(Spread.of(List.of(0.0, 0.0)).maxOverMin()).isEqualTo(1.0);
    }

    @Test
    void zeroBesideAPositiveValueIsFlagged() {
        assertThat(Spread.of(List.of(0.0, 3.0)).maxOverMin()).isInfinite();
        assertThat(Spread.of(List.of(0.0, 3.0)).flagged()).isTrue();
    }

    @Test
    void noValuesIsAnError() {
        assertThatThrownBy(() -> Spread.of(List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
