package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.EncryptionSettings;
import dev.flinks3.transfer.aws.SseDecorator;
import org.junit.jupiter.api.Test;

class MultipartCopyTest {

    private static final long MIB = 1024L * 1024;
    private static final long GIB = 1024 * MIB;

    private final MultipartCopy copy = new MultipartCopy(
            null, new SseDecorator(EncryptionSettings.builder().build()), 512 * MIB, 4);

    @Test
    void copiesInPartsOfTheConfiguredSize() {
        assertThat(copy.partCount(6 * GIB)).isEqualTo(12);
        assertThat(copy.partCount(6 * GIB + 1)).isEqualTo(13);
    }

    @Test
    void hugeObjectsUseLargerPartsToStayWithinTenThousand() {
        assertThat(copy.partCount(5L * 1024 * GIB)).isLessThanOrEqualTo(CompletedPart.MAX_PART_NUMBER);
    }

    @Test
    void partSizeMustBeOneS3Accepts() {
        assertThatThrownBy(() -> new MultipartCopy(null, null, 4 * MIB, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("5 MiB..5 GiB");
    }
}
