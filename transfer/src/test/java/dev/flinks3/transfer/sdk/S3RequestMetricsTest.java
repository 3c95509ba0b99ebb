package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.metrics.CoreMetric;
import software.amazon.awssdk.metrics.MetricCollection;
import software.amazon.awssdk.metrics.MetricCollector;

/** Counting from the metric collections the SDK publishes (built here as the SDK builds them) and the retry strategy's decisions. */
class S3RequestMetricsTest {

    private final S3RequestMetrics metrics = new S3RequestMetrics();

    @Test
    void countsRequestsAttemptsAndRetriesPerOperation() {
        metrics.publish(call("UploadPart", true, 3));
        metrics.publish(call("GetObject", true, 2));
        metrics.publish(call("HeadObject", false, 2));
        metrics.publish(call("PutObject", true, 1));

        S3RequestMetrics.Snapshot snapshot = metrics.snapshot();

        assertThat(snapshot.requests()).isEqualTo(4);
        assertThat(snapshot.failedRequests()).isEqualTo(1);
        assertThat(snapshot.attempts()).isEqualTo(8);
        assertThat(snapshot.retries()).isEqualTo(4);
        assertThat(snapshot.retriesByOperation())
                .containsOnly(Map.entry("UploadPart", 2L), Map.entry("GetObject", 1L), Map.entry("HeadObject", 1L));
        assertThat(snapshot.retries("PutObject")).isZero();
    }

    @Test
    void countsFailedAttemptsByKindAndTheBackoffsAfterThrottlingApartFromTheOthers() {
        metrics.attemptFailed(S3RetryStrategy.Failure.THROTTLED, Duration.ofMillis(700));
        metrics.attemptFailed(S3RetryStrategy.Failure.THROTTLED, Duration.ofMillis(1500));
        metrics.attemptFailed(S3RetryStrategy.Failure.ERROR_ANSWER, Duration.ofMillis(60));
        metrics.attemptFailed(S3RetryStrategy.Failure.CONNECTION, Duration.ofMillis(90));
        metrics.attemptFailed(S3RetryStrategy.Failure.TIMED_OUT, Duration.ofMillis(10));
        metrics.attemptFailed(S3RetryStrategy.Failure.ERROR_ANSWER, null);

        S3RequestMetrics.Snapshot snapshot = metrics.snapshot();

        assertThat(snapshot.throttledAttempts()).isEqualTo(2);
        assertThat(snapshot.errorAnswerAttempts()).isEqualTo(2);
        assertThat(snapshot.connectionFailedAttempts()).isEqualTo(1);
        assertThat(snapshot.timedOutAttempts()).isEqualTo(1);
        assertThat(snapshot.backoffAfterThrottling()).satisfies(b -> {
            assertThat(b.retries()).isEqualTo(2);
            assertThat(b.shortestMillis()).isEqualTo(700);
            assertThat(b.longestMillis()).isEqualTo(1500);
        });
        assertThat(snapshot.backoffAfterOtherFailures()).satisfies(b -> {
            assertThat(b.retries()).isEqualTo(3);
            assertThat(b.shortestMillis()).isEqualTo(10);
            assertThat(b.longestMillis()).isEqualTo(90);
        });
    }

    @Test
    void aSnapshotSinceAnEarlierOneHoldsTheDifference() {
        metrics.publish(call("UploadPart", true, 2));
        metrics.attemptFailed(S3RetryStrategy.Failure.THROTTLED, Duration.ofMillis(700));
        S3RequestMetrics.Snapshot before = metrics.snapshot();
        metrics.publish(call("GetObject", true, 2));
        metrics.attemptFailed(S3RetryStrategy.Failure.CONNECTION, Duration.ofMillis(90));

        S3RequestMetrics.Snapshot since = metrics.snapshot().since(before);

        assertThat(since.requests()).isEqualTo(1);
        assertThat(since.throttledAttempts()).isZero();
        assertThat(since.connectionFailedAttempts()).isEqualTo(1);
        assertThat(since.retriesByOperation()).containsOnlyKeys("GetObject");
    }

    @Test
    void countsEachOperationWithItsFailedAttemptsBySdkErrorTypeAndItsLatency() {
        metrics.publish(call("UploadPart", true, Duration.ofMillis(40), "Throttling", "ServerError", null));
        metrics.publish(call("UploadPart", true, Duration.ofMillis(10), "ConfiguredTimeout", null));
        metrics.publish(call("UploadPart", false, Duration.ofMillis(90), "IO", "IO"));
        metrics.publish(call("HeadObject", false, Duration.ofMillis(2), "Other"));
        metrics.publish(call("SelectObjectContent", true, Duration.ofMillis(1), (String) null));

        OperationMetrics uploadPart = metrics.operations().get("UploadPart");
        assertThat(uploadPart.requests()).isEqualTo(3);
        assertThat(uploadPart.failedRequests()).isEqualTo(1);
        assertThat(uploadPart.attempts()).isEqualTo(7);
        assertThat(uploadPart.retries()).isEqualTo(4);
        assertThat(uploadPart.throttledAttempts()).isEqualTo(1);
        assertThat(uploadPart.errorAnswerAttempts()).isEqualTo(1);
        assertThat(uploadPart.timedOutAttempts()).isEqualTo(1);
        assertThat(uploadPart.ioErrorAttempts()).isEqualTo(2);
        assertThat(uploadPart.otherErrorAttempts()).isZero();
        // Buckets: 10 ms in le=0.01, 40 ms in le=0.05, 90 ms in le=0.1 (cumulative, as Prometheus' le).
        LatencyHistogram.Snapshot latency = uploadPart.latency();
        assertThat(latency.count()).isEqualTo(3);
        assertThat(latency.cumulativeCount(LatencyHistogram.BOUNDS_SECONDS.indexOf(0.005)))
                .isZero();
        assertThat(latency.cumulativeCount(LatencyHistogram.BOUNDS_SECONDS.indexOf(0.01)))
                .isEqualTo(1);
        assertThat(latency.cumulativeCount(LatencyHistogram.BOUNDS_SECONDS.indexOf(0.05)))
                .isEqualTo(2);
        assertThat(latency.cumulativeCount(LatencyHistogram.BOUNDS_SECONDS.indexOf(0.1)))
                .isEqualTo(3);
        assertThat(latency.cumulativeCount(LatencyHistogram.BOUNDS_SECONDS.size()))
                .isEqualTo(3);
        assertThat(latency.sumSeconds()).isCloseTo(0.140, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(latency.upperBoundSeconds(0.5)).isEqualTo(0.05);
        assertThat(metrics.operations().get("HeadObject").otherErrorAttempts()).isEqualTo(1);
        assertThat(metrics.operations().get(S3RequestMetrics.OTHER_OPERATION).requests())
                .isEqualTo(1);
        assertThat(metrics.operations().get("GetObject").requests()).isZero();
        assertThat(metrics.operations().keySet())
                .containsAll(S3RequestMetrics.OPERATIONS)
                .contains(S3RequestMetrics.OTHER_OPERATION);
    }

    /** One call with an attempt per given SDK error type ({@code null}: the attempt succeeded). */
    private static MetricCollection call(
            String operation, boolean successful, Duration duration, String... attemptErrorTypes) {
        MetricCollector call = MetricCollector.create("ApiCall");
        call.reportMetric(CoreMetric.OPERATION_NAME, operation);
        call.reportMetric(CoreMetric.API_CALL_SUCCESSFUL, successful);
        call.reportMetric(CoreMetric.RETRY_COUNT, attemptErrorTypes.length - 1);
        call.reportMetric(CoreMetric.API_CALL_DURATION, duration);
        for (String errorType : attemptErrorTypes) {
            MetricCollector attempt = call.createChild("ApiCallAttempt");
            if (errorType != null) {
                attempt.reportMetric(CoreMetric.ERROR_TYPE, errorType);
            }
        }
        return call.collect();
    }

    private static MetricCollection call(String operation, boolean successful, int attempts) {
        MetricCollector call = MetricCollector.create("ApiCall");
        call.reportMetric(CoreMetric.OPERATION_NAME, operation);
        call.reportMetric(CoreMetric.API_CALL_SUCCESSFUL, successful);
        call.reportMetric(CoreMetric.RETRY_COUNT, attempts - 1);
        for (int i = 0; i < attempts; i++) {
            call.createChild("ApiCallAttempt").createChild("HttpClient");
        }
        return call.collect();
    }
}
