package dev.flinks3.bench.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerProcessTest {

    @Test
    void countLinesBecomeCountsPerOperationWithoutTheTotal() {
        String body = "GetObject 16\nPutObject 300\nTotal 316\n";

        assertThat(ServerProcess.parseCounts(body)).isEqualTo(Map.of("GetObject", 16L, "PutObject", 300L));
    }

    @Test
    void noRequestsYetIsAnEmptyMap() {
        assertThat(ServerProcess.parseCounts("Total 0\n")).isEmpty();
    }

    @Test
    void anUnexpectedLineIsAnError() {
        assertThatThrownBy(() -> ServerProcess.parseCounts("<html>oops</html>\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("oops");
    }
}
