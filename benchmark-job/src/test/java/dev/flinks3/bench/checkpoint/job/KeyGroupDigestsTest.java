package dev.flinks3.bench.checkpoint.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.junit.jupiter.api.Test;

class KeyGroupDigestsTest {

    @Test
    void tracksKeysAndDigestsPerKeyGroupThroughCreatesAndUpdates() {
        KeyGroupDigests digests = new KeyGroupDigests(KeyGroupRange.of(10, 12));

        digests.update(10, true, 0, 5);
        digests.update(10, false, 5, 9);
        digests.update(12, true, 0, 1);

        assertThat(digests.entries())
                .containsExactly(
                        new KeyGroupDigest(10, 1, 9), new KeyGroupDigest(11, 0, 0), new KeyGroupDigest(12, 1, 1));
        assertThat(digests.totalKeys()).isEqualTo(2);
        assertThat(digests.totalDigest()).isEqualTo(10);
    }

    @Test
    void restoresOnlyTheKeyGroupsOfItsRangeFromTheUnionOfAllSubtasks() {
        List<KeyGroupDigest> union = new ArrayList<>();
        for (int keyGroup = 0; keyGroup < 8; keyGroup++) {
            union.add(new KeyGroupDigest(keyGroup, keyGroup, keyGroup * 100L));
        }

        KeyGroupDigests restored = KeyGroupDigests.restored(KeyGroupRange.of(2, 3), union);

        assertThat(restored.entries()).containsExactly(new KeyGroupDigest(2, 2, 200), new KeyGroupDigest(3, 3, 300));
    }

    @Test
    void aCheckpointWithoutAKeyGroupsDigestCannotBeVerified() {
        List<KeyGroupDigest> union = List.of(new KeyGroupDigest(2, 1, 1));

        assertThatThrownBy(() -> KeyGroupDigests.restored(KeyGroupRange.of(2, 3), union))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("key group 3");
    }

    @Test
    void describesEachKeyGroupThatDiffers() {
        KeyGroupDigests expected = new KeyGroupDigests(KeyGroupRange.of(0, 1));
        expected.add(0, 7);
        expected.add(1, 8);
        KeyGroupDigests actual = new KeyGroupDigests(KeyGroupRange.of(0, 1));
        actual.add(0, 7);
        actual.add(1, 9);

        assertThat(expected.differences(actual))
                .singleElement()
                .asString()
                .startsWith("key group 1: expected 1 keys with digest 0000000000000008, found 1 keys");
        assertThat(expected.differences(expected)).isEmpty();
    }
}
