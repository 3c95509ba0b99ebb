package dev.flinks3.fs.metrics;

import java.io.Closeable;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs one INFO line with a filesystem's {@link S3FileSystemMetrics#summary() summary} every
 * {@code s3.metrics.log-interval}, and one when the filesystem's resources are closed; an interval of 0
 * logs nothing. The lines come from a daemon timer thread ({@link #newTimer()}, one per process runtime
 * shared by all its logs, or one of this log's own), never from the data path. Thread-safe.
 */
public final class MetricsSummaryLog implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsSummaryLog.class);

    private final String name;
    private final Supplier<String> summary;
    private final Consumer<String> sink;
    private final ScheduledExecutorService ownTimer;
    private final ScheduledFuture<?> periodic;
    private boolean closed;

    private MetricsSummaryLog(
            String name,
            Supplier<String> summary,
            Duration interval,
            Consumer<String> sink,
            ScheduledExecutorService sharedTimer) {
        this.name = name;
        this.summary = summary;
        this.sink = sink;
        if (interval.isZero()) {
            this.ownTimer = null;
            this.periodic = null;
            return;
        }
        this.ownTimer = sharedTimer == null ? newTimer() : null;
        ScheduledExecutorService timer = sharedTimer == null ? ownTimer : sharedTimer;
        long millis = interval.toMillis();
        this.periodic = timer.scheduleAtFixedRate(
                () -> sink.accept(name + ": " + summary.get()), millis, millis, TimeUnit.MILLISECONDS);
    }

    /**
     * A timer thread ({@code flinks3-metrics-log}, daemon) for the logs of one process runtime; the
     * caller shuts it down after closing those logs.
     */
    public static ScheduledExecutorService newTimer() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "flinks3-metrics-log");
            thread.setDaemon(true);
            return thread;
        });
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }

    /**
     * Starts logging {@code metrics} every {@code interval} on {@code timer}.
     *
     * @param name what the lines are about, e.g. {@code s3:// on 127.0.0.1_9000}
     * @param interval time between lines; zero for no lines at all
     * @param timer runs the periodic lines; not owned ({@link #newTimer()})
     * @throws IllegalArgumentException if {@code interval} is negative
     */
    public static MetricsSummaryLog start(
            String name, S3FileSystemMetrics metrics, Duration interval, ScheduledExecutorService timer) {
        checkInterval(interval);
        return new MetricsSummaryLog(
                name, metrics::summary, interval, line -> LOG.info("flinks3 metrics of {}", line), timer);
    }

    /** As {@link #start(String, S3FileSystemMetrics, Duration, ScheduledExecutorService)} on a timer of its own. */
    static MetricsSummaryLog start(String name, Supplier<String> summary, Duration interval, Consumer<String> sink) {
        checkInterval(interval);
        return new MetricsSummaryLog(name, summary, interval, sink, null);
    }

    private static void checkInterval(Duration interval) {
        if (interval.isNegative()) {
            throw new IllegalArgumentException("metrics log interval " + interval + " must not be negative");
        }
    }

    /** Stops the periodic lines and logs the last one (unless the interval is 0). Idempotent. */
    @Override
    public synchronized void close() {
        if (closed || periodic == null) {
            closed = true;
            return;
        }
        closed = true;
        periodic.cancel(false);
        if (ownTimer != null) {
            ownTimer.shutdownNow();
            try {
                // A line being written now comes before the last one.
                ownTimer.awaitTermination(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        sink.accept(name + " at close: " + summary.get());
    }
}
