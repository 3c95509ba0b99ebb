package dev.flinks3.fs.metrics;

import dev.flinks3.transfer.sdk.OperationMetrics;

/** The {@link S3OperationMBean} of one operation's {@link OperationMetrics}. Thread-safe. */
final class OperationBean implements S3OperationMBean {

    private static final double NANOS_PER_MILLI = 1_000_000.0;

    private final OperationMetrics metrics;

    OperationBean(OperationMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public long getRequests() {
        return metrics.requests();
    }

    @Override
    public long getFailedRequests() {
        return metrics.failedRequests();
    }

    @Override
    public long getAttempts() {
        return metrics.attempts();
    }

    @Override
    public long getRetries() {
        return metrics.retries();
    }

    @Override
    public long getThrottledAttempts() {
        return metrics.throttledAttempts();
    }

    @Override
    public long getErrorAnswerAttempts() {
        return metrics.errorAnswerAttempts();
    }

    @Override
    public long getTimedOutAttempts() {
        return metrics.timedOutAttempts();
    }

    @Override
    public long getIoErrorAttempts() {
        return metrics.ioErrorAttempts();
    }

    @Override
    public long getOtherErrorAttempts() {
        return metrics.otherErrorAttempts();
    }

    @Override
    public double getLatencyP50Millis() {
        return metrics.latency().p50Nanos() / NANOS_PER_MILLI;
    }

    @Override
    public double getLatencyP99Millis() {
        return metrics.latency().p99Nanos() / NANOS_PER_MILLI;
    }

    @Override
    public double getLatencyMaxMillis() {
        return metrics.latency().maxNanos() / NANOS_PER_MILLI;
    }

    @Override
    public int getLatencySamples() {
        return metrics.latency().samples();
    }

    @Override
    public double getMeanConnectionWaitMillis() {
        return metrics.meanConnectionWaitNanos() / NANOS_PER_MILLI;
    }

    @Override
    public double getMeanTimeToFirstByteMillis() {
        return metrics.meanTimeToFirstByteNanos() / NANOS_PER_MILLI;
    }

    @Override
    public double getMeanBodyMillis() {
        return metrics.meanBodyNanos() / NANOS_PER_MILLI;
    }
}
