package dev.flinks3.testserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The random fault choice: reproducible with a seed, at the profile's rates, counted. */
class RandomFaultsTest {

    private static final int DRAWS = 100_000;

    @Test
    void theSameSeedChoosesTheSameFaultsAndAnotherSeedOthers() {
        FaultProfile profile = FaultProfile.of(0.03);

        assertThat(draw(profile, 5_000)).isEqualTo(draw(profile, 5_000));
        assertThat(draw(profile.withSeed(7), 5_000)).isNotEqualTo(draw(profile, 5_000));
    }

    @Test
    void faultsComeAtTheProfilesRatesAndAreCounted() {
        RandomFaults faults = new RandomFaults(new FaultProfile(0.03, 0.005, 1));
        Map<RandomFaults.Fault, Integer> seen = new EnumMap<>(RandomFaults.Fault.class);
        for (int i = 0; i < DRAWS; i++) {
            seen.merge(faults.next(), 1, Integer::sum);
        }

        // 100,000 draws: the standard deviation of each count is below 40, the bounds are over 4 of it.
        assertThat(seen.get(RandomFaults.Fault.INTERNAL_ERROR)).isBetween(1_350, 1_650);
        assertThat(seen.get(RandomFaults.Fault.SLOW_DOWN)).isBetween(1_350, 1_650);
        assertThat(seen.get(RandomFaults.Fault.RESET)).isBetween(400, 600);
        InjectedFaults counts = faults.counts();
        assertThat(counts)
                .isEqualTo(new InjectedFaults(
                        seen.get(RandomFaults.Fault.INTERNAL_ERROR),
                        seen.get(RandomFaults.Fault.SLOW_DOWN),
                        seen.get(RandomFaults.Fault.RESET)));
        assertThat(counts.total()).isEqualTo(DRAWS - seen.get(RandomFaults.Fault.NONE));
    }

    @Test
    void aZeroProfileInjectsNothing() {
        RandomFaults faults = new RandomFaults(FaultProfile.of(0));

        assertThat(draw(FaultProfile.of(0), 10_000)).containsOnly(RandomFaults.Fault.NONE);
        assertThat(faults.counts()).isEqualTo(InjectedFaults.NONE);
    }

    @Test
    void theShorthandResetsASixthAsOftenAsItAnswersErrors() {
        FaultProfile profile = FaultProfile.of(0.03);

        assertThat(profile.resetRate()).isEqualTo(0.005, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(profile.seed()).isEqualTo(FaultProfile.DEFAULT_SEED);
        assertThat(profile).hasToString("errors 3.00%, resets 0.50%, seed 42");
    }

    @Test
    void ratesOutsideZeroToOneAreRejected() {
        assertThatThrownBy(() -> new FaultProfile(-0.1, 0, 1)).hasMessage("errorRate must be in [0, 1], was -0.1");
        assertThatThrownBy(() -> new FaultProfile(0, Double.NaN, 1)).hasMessage("resetRate must be in [0, 1], was NaN");
        assertThatThrownBy(() -> new FaultProfile(0.8, 0.3, 1)).hasMessageStartingWith("errorRate + resetRate");
    }

    private static List<RandomFaults.Fault> draw(FaultProfile profile, int count) {
        RandomFaults faults = new RandomFaults(profile);
        List<RandomFaults.Fault> drawn = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            drawn.add(faults.next());
        }
        return drawn;
    }
}
