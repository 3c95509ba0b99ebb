package dev.flinks3.fs.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class MetricsSummaryLogTest {

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final AtomicInteger calls = new AtomicInteger();

    @Test
    void logsEveryIntervalAndOnceMoreAtClose() {
        MetricsSummaryLog log = MetricsSummaryLog.start(
                "s3:// on minio_9000", () -> "summary " + calls.incrementAndGet(), Duration.ofMillis(20), lines::add);

        await().atMost(Duration.ofSeconds(10)).until(() -> lines.size() >= 3);
        log.close();
        log.close();

        assertThat(lines.get(0)).isEqualTo("s3:// on minio_9000: summary 1");
        assertThat(lines.get(lines.size() - 1)).startsWith("s3:// on minio_9000 at close: summary ");
        assertThat(lines.stream().filter(line -> line.contains("at close"))).hasSize(1);
    }

    @Test
    void anIntervalOfZeroLogsNothingNotEvenAtClose() {
        MetricsSummaryLog log = MetricsSummaryLog.start(
                "s3:// on minio_9000", () -> "summary " + calls.incrementAndGet(), Duration.ZERO, lines::add);

        log.close();

        assertThat(lines).isEmpty();
        assertThat(calls).hasValue(0);
    }

    @Test
    void aNegativeIntervalIsRefused() {
        assertThatThrownBy(() -> MetricsSummaryLog.start("x", () -> "", Duration.ofSeconds(-1), lines::add))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
