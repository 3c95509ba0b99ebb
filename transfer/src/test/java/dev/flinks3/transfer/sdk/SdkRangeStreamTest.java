package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.transfer.RangeStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

class SdkRangeStreamTest {

    @Test
    void objectLengthComesFromContentRange() {
        GetObjectResponse ranged = GetObjectResponse.builder()
                .contentRange("bytes 100-199/123456789012")
                .contentLength(100L)
                .build();
        assertThat(SdkRangeStream.objectLength(ranged)).isEqualTo(123_456_789_012L);
    }

    @Test
    void wholeObjectAnswersUseContentLength() {
        assertThat(SdkRangeStream.objectLength(
                        GetObjectResponse.builder().contentLength(42L).build()))
                .isEqualTo(42);
    }

    @Test
    void unknownTotalIsMinusOne() {
        assertThat(SdkRangeStream.objectLength(
                        GetObjectResponse.builder().contentRange("bytes 0-9/*").build()))
                .isEqualTo(-1);
    }

    @Test
    void emptyStreamEndsAtOnce() throws IOException {
        try (RangeStream empty = SdkRangeStream.empty()) {
            assertThat(empty.read()).isEqualTo(-1);
            assertThat(empty.read(new byte[8], 0, 8)).isEqualTo(-1);
            assertThat(empty.objectLength()).isZero();
            empty.abort();
        }
    }
}
