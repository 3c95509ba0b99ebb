package dev.flinks3.bench.checkpoint.local;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class S3TrafficMeterTest {

    @Test
    void aClosedRangeCountsItsBytes() {
        assertThat(S3TrafficMeter.rangeLength("bytes=0-99", 1000)).isEqualTo(100);
        assertThat(S3TrafficMeter.rangeLength("bytes=900-1999", 1000)).as("clipped to the object").isEqualTo(100);
    }

    @Test
    void openAndSuffixRangesCountToTheEnd() {
        assertThat(S3TrafficMeter.rangeLength("bytes=600-", 1000)).isEqualTo(400);
        assertThat(S3TrafficMeter.rangeLength("bytes=-300", 1000)).isEqualTo(300);
    }

    @Test
    void anUnreadableRangeCountsTheWholeObject() {
        assertThat(S3TrafficMeter.rangeLength("bytes=0-1,5-9", 1000)).isEqualTo(1000);
    }
}
