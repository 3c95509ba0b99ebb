package dev.flinks3.fs.metrics;

import java.io.Closeable;
import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs one INFO line with a filesystem's {@link S3FileSystemMetrics#summary() summary} every
 * {@code s3.metrics.log-interval}, and one when the filesystem's resources are closed; an interval of 0
 * logs nothing. The lines come from one daemon thread of this log's own, never from the data path.
 * Thread-safe.
 */
public final class MetricsSummaryLog implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(MetricsSummaryLog.class);

    private final String name;
    private final Supplier<String> summary;
    private final Consumer<String> sink;
    private final ScheduledThreadPoolExecutor timer;
    private boolean closed;

    private MetricsSummaryLog(String name, Supplier<String> summary, Duration interval, Consumer<String> sink) {
        this.name = name;
        this.summary = summary;
        this.sink = sink;
        if (interval.isZero()) {
            this.timer = null;
            return;
        }
        this.timer = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "flinks3-metrics-log");
            thread.setDaemon(true);
            return thread;
        });
        long millis = interval.toMillis();
        timer.scheduleAtFixedRate(
                () -> sink.accept(name + ": " + summary.get()), millis, millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Starts logging {@code metrics} every {@code interval}.
     *
     * @param name what the lines are about, e.g. {@code s3:// on 127.0.0.1_9000}
     * @param interval time between lines; zero for no lines at all
     * @throws IllegalArgumentException if {@code interval} is negative
     */
    public static MetricsSummaryLog start(String name, S3FileSystemMetrics metrics, Duration interval) {
        return start(name, metrics::summary, interval, line -> LOG.info("flinks3 metrics of {}", line));
    }

    static MetricsSummaryLog start(String name, Supplier<String> summary, Duration interval, Consumer<String> sink) {
        if (interval.isNegative()) {
            throw new IllegalArgumentException("metrics log interval " + interval + " must not be negative");
        }
        return new MetricsSummaryLog(name, summary, interval, sink);
    }

    /** Stops the periodic lines and logs the last one (unless the interval is 0). Idempotent. */
    @Override
    public synchronized void close() {
        if (closed || timer == null) {
            closed = true;
            return;
        }
        closed = true;
        timer.shutdownNow();
        try {
            // A line being written now comes before the last one.
            timer.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sink.accept(name + " at close: " + summary.get());
    }
}
