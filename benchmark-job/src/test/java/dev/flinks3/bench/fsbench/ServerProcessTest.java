package dev.flinks3.bench.fsbench;

import dev.flinks3.bench.common.ServerStats;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerProcessTest {

    @Test
    void countLinesBecomeCountsAndServeTimesPerOperationWithoutTheTotal() {
        String body = "GetObject 16 420\nPutObject 300 6100\nTotal 316\n";

        ServerStats stats = ServerProcess.parse(7, body);

        assertThat(stats.cpuNanos()).isEqualTo(7);
        assertThat(stats.requestsByOperation()).isEqualTo(Map.of("GetObject", 16L, "PutObject", 300L));
        assertThat(stats.serveMillisByOperation()).isEqualTo(Map.of("GetObject", 420L, "PutObject", 6100L));
    }

    @Test
    void noRequestsYetIsAnEmptyMap() {
        assertThat(ServerProcess.parse(0, "Total 0\n").requestsByOperation()).isEmpty();
    }

    @Test
    void anUnexpectedLineIsAnError() {
        assertThatThrownBy(() -> ServerProcess.parse(0, "<html>oops</html>\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("oops");
    }
}
