package dev.flinks3.bench.checkpoint.job;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ValueDigestTest {

    private final byte[] a = {1, 2, 3, 4};
    private final byte[] b = {1, 2, 3, 5};

    @Test
    void aChangedByteChangesTheDigest() {
        assertThat(ValueDigest.of(1, a)).isNotEqualTo(ValueDigest.of(1, b));
        assertThat(ValueDigest.of(1, a)).isEqualTo(ValueDigest.of(1, a.clone()));
    }

    @Test
    void valuesSwappedBetweenKeysChangeTheSumOfDigests() {
        long stored = ValueDigest.of(1, a) + ValueDigest.of(2, b);
        long swapped = ValueDigest.of(1, b) + ValueDigest.of(2, a);

        assertThat(swapped).isNotEqualTo(stored);
    }
}
