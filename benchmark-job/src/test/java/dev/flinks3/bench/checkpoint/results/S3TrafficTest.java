package dev.flinks3.bench.checkpoint.results;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.common.Json;
import dev.flinks3.bench.common.ServerTraffic;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestSummary;
import dev.flinks3.testserver.RequestTotals;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class S3TrafficTest {

    @Test
    void aPhaseCountsItsRequestsTheGetObjectBytesSentAndTheServersCpu() {
        ServerTraffic phase = new ServerTraffic(
                3_000_000,
                new RequestSummary(Map.of(
                        RequestKind.GET_OBJECT, new RequestTotals(5, 1_000, 94_400_618),
                        RequestKind.PUT_OBJECT, new RequestTotals(7, 2_000, 300))));

        assertThat(S3Traffic.of(phase))
                .isEqualTo(new S3Traffic(12, Map.of("GetObject", 5L, "PutObject", 7L), 94_400_618, 3_000_000));
    }

    @Test
    void resultsWrittenBeforeKeepTheirShape() throws Exception {
        String written = "{\"requests\":12,\"requestsByOperation\":{\"GetObject\":5},\"bytesRead\":94400618}";

        S3Traffic read = Json.COMPACT.readValue(written, S3Traffic.class);

        assertThat(read).isEqualTo(new S3Traffic(12, Map.of("GetObject", 5L), 94_400_618));
        assertThat(Json.COMPACT.writeValueAsString(read)).isEqualTo(written);
    }
}
