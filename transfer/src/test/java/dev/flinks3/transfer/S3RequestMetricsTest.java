package dev.flinks3.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.metrics.CoreMetric;
import software.amazon.awssdk.metrics.MetricCollector;

/** Counting from the metric collections the SDK publishes, built here as the SDK builds them. */
class S3RequestMetricsTest {

    private final S3RequestMetrics metrics = new S3RequestMetrics();

    @Test
    void countsRequestsAttemptsRetriesAndFailedAttemptsByType() {
        metrics.publish(call("UploadPart", true, attempt(null, S3RequestMetrics.THROTTLING),
                attempt(Duration.ofMillis(700), S3RequestMetrics.ERROR_ANSWER), attempt(Duration.ofMillis(60), null)));
        metrics.publish(call("GetObject", true, attempt(null, S3RequestMetrics.IO), attempt(Duration.ofMillis(90), null)));
        metrics.publish(call("HeadObject", false, attempt(null, S3RequestMetrics.CONFIGURED_TIMEOUT),
                attempt(Duration.ofMillis(30), "Other")));
        metrics.publish(call("PutObject", true, attempt(null, null)));

        S3RequestMetrics.Snapshot snapshot = metrics.snapshot();

        assertThat(snapshot.requests()).isEqualTo(4);
        assertThat(snapshot.failedRequests()).isEqualTo(1);
        assertThat(snapshot.attempts()).isEqualTo(8);
        assertThat(snapshot.retries()).isEqualTo(4);
        assertThat(snapshot.retriesByOperation()).containsOnly(
                java.util.Map.entry("UploadPart", 2L), java.util.Map.entry("GetObject", 1L),
                java.util.Map.entry("HeadObject", 1L));
        assertThat(snapshot.throttledAttempts()).isEqualTo(1);
        assertThat(snapshot.errorAnswerAttempts()).isEqualTo(1);
        assertThat(snapshot.ioErrorAttempts()).isEqualTo(1);
        assertThat(snapshot.timedOutAttempts()).isEqualTo(1);
    }

    @Test
    void keepsTheBackoffOfEachRetryByWhatTheAttemptBeforeItRanInto() {
        metrics.publish(call("UploadPart", true, attempt(null, S3RequestMetrics.THROTTLING),
                attempt(Duration.ofMillis(700), S3RequestMetrics.THROTTLING),
                attempt(Duration.ofMillis(1500), S3RequestMetrics.ERROR_ANSWER), attempt(Duration.ofMillis(60), null)));
        metrics.publish(call("GetObject", true, attempt(null, S3RequestMetrics.IO), attempt(Duration.ofMillis(90), null)));

        S3RequestMetrics.Snapshot snapshot = metrics.snapshot();

        assertThat(snapshot.backoffAfterThrottling().retries()).isEqualTo(2);
        assertThat(snapshot.backoffAfterThrottling().shortestMillis()).isEqualTo(700);
        assertThat(snapshot.backoffAfterThrottling().longestMillis()).isEqualTo(1500);
        assertThat(snapshot.backoffAfterOtherFailures().retries()).isEqualTo(2);
        assertThat(snapshot.backoffAfterOtherFailures().shortestMillis()).isEqualTo(60);
        assertThat(snapshot.backoffAfterOtherFailures().longestMillis()).isEqualTo(90);
    }

    @Test
    void aSnapshotSinceAnEarlierOneHoldsTheDifference() {
        metrics.publish(call("UploadPart", true, attempt(null, S3RequestMetrics.THROTTLING), attempt(Duration.ofMillis(700), null)));
        S3RequestMetrics.Snapshot before = metrics.snapshot();
        metrics.publish(call("GetObject", true, attempt(null, S3RequestMetrics.IO), attempt(Duration.ofMillis(90), null)));

        S3RequestMetrics.Snapshot since = metrics.snapshot().since(before);

        assertThat(since.requests()).isEqualTo(1);
        assertThat(since.throttledAttempts()).isZero();
        assertThat(since.ioErrorAttempts()).isEqualTo(1);
        assertThat(since.retriesByOperation()).containsOnlyKeys("GetObject");
    }

    private static software.amazon.awssdk.metrics.MetricCollection call(
            String operation, boolean successful, AttemptSpec... attempts) {
        MetricCollector call = MetricCollector.create("ApiCall");
        call.reportMetric(CoreMetric.OPERATION_NAME, operation);
        call.reportMetric(CoreMetric.API_CALL_SUCCESSFUL, successful);
        call.reportMetric(CoreMetric.RETRY_COUNT, attempts.length - 1);
        for (AttemptSpec spec : attempts) {
            MetricCollector attempt = call.createChild("ApiCallAttempt");
            if (spec.backoff != null) {
                attempt.reportMetric(CoreMetric.BACKOFF_DELAY_DURATION, spec.backoff);
            }
            if (spec.errorType != null) {
                attempt.reportMetric(CoreMetric.ERROR_TYPE, spec.errorType);
            }
            attempt.createChild("HttpClient");
        }
        return call.collect();
    }

    private static AttemptSpec attempt(Duration backoff, String errorType) {
        return new AttemptSpec(backoff, errorType);
    }

    private record AttemptSpec(Duration backoff, String errorType) {}
}
