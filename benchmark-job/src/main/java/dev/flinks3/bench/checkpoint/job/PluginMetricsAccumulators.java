package dev.flinks3.bench.checkpoint.job;

import dev.flinks3.bench.checkpoint.results.PluginMBeans;
import dev.flinks3.bench.checkpoint.results.PluginMetrics;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.JMException;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.accumulators.LongMaximum;
import org.apache.flink.api.common.functions.RuntimeContext;

/**
 * The plugin's own metrics of each TaskManager (its platform MBeans, {@link PluginMBeans}) carried as job
 * accumulators, so that a report of a cluster run ({@code report --rest-url}) has them from Flink's REST
 * API, which keeps a job's accumulators after the job ended (its metrics it does not). One subtask per
 * JVM reports, since the MBeans count the whole JVM; it adds what changed since its last report (at first,
 * since it opened, so what the JVM did before this job is left out) at every checkpoint and when it
 * closes. Totals are {@link LongCounter}s (summed over TaskManagers), peaks {@link LongMaximum}s (the
 * plugin's peaks since its filesystem was created). Named {@value #PREFIX}{@code <figure>}, requests per operation
 * {@value #PREFIX}{@code requests.<Operation>}.
 *
 * <p>Not thread-safe: one instance per subtask, used by its task thread.
 */
public final class PluginMetricsAccumulators {

    /** The prefix of every accumulator of plugin metrics. */
    public static final String PREFIX = "plugin.";

    private static final AtomicReference<PluginMetricsAccumulators> REPORTING_IN_THIS_JVM = new AtomicReference<>();
    private static final String[] TOTALS = {
        "requests",
        "failedRequests",
        "retries",
        "throttledAttempts",
        "timedOutAttempts",
        "bytesUploaded",
        "bytesDownloaded",
        "backPressureBlockedMillis"
    };

    private final RuntimeContext context;
    private long[] reported = new long[TOTALS.length];
    private final Map<String, Long> reportedByOperation = new TreeMap<>();

    private PluginMetricsAccumulators(RuntimeContext context) {
        this.context = context;
    }

    /** For a subtask opening; the first of this JVM becomes its reporter, counting from now on. */
    static PluginMetricsAccumulators open(RuntimeContext context) {
        PluginMetricsAccumulators accumulators = new PluginMetricsAccumulators(context);
        if (REPORTING_IN_THIS_JVM.compareAndSet(null, accumulators)) {
            PluginMetrics now = readQuietly();
            if (now != null) {
                accumulators.reported = totals(now);
                accumulators.reportedByOperation.putAll(now.requestsByOperation());
            }
        }
        return accumulators;
    }

    /** Adds what the plugin counted since the last report, if this subtask reports for its JVM. */
    void report() {
        if (REPORTING_IN_THIS_JVM.get() != this) {
            return;
        }
        PluginMetrics now = readQuietly();
        if (now == null) {
            return;
        }
        long[] totals = totals(now);
        for (int i = 0; i < TOTALS.length; i++) {
            context.getLongCounter(PREFIX + TOTALS[i]).add(totals[i] - reported[i]);
        }
        reported = totals;
        maximum("peakBufferedBytes").add(now.peakBufferedBytes());
        maximum("peakReadAheadBytes").add(now.peakReadAheadBytes());
        now.requestsByOperation().forEach((operation, requests) -> {
            long before = reportedByOperation.getOrDefault(operation, 0L);
            context.getLongCounter(PREFIX + "requests." + operation).add(requests - before);
            reportedByOperation.put(operation, requests);
        });
    }

    /** Reports a last time and lets another subtask of this JVM (a later job's) report. */
    void close() {
        report();
        REPORTING_IN_THIS_JVM.compareAndSet(this, null);
    }

    /**
     * The plugin metrics in a job's accumulators (as Flink's REST API gives them), or null if the job has
     * none (another plugin ran, or the job did not report).
     */
    public static PluginMetrics read(Map<String, String> accumulators) {
        if (!accumulators.containsKey(PREFIX + "requests")) {
            return null;
        }
        long[] totals = new long[TOTALS.length];
        for (int i = 0; i < TOTALS.length; i++) {
            totals[i] = number(accumulators.get(PREFIX + TOTALS[i]));
        }
        Map<String, Long> byOperation = new TreeMap<>();
        accumulators.forEach((name, value) -> {
            if (name.startsWith(PREFIX + "requests.")) {
                byOperation.put(name.substring((PREFIX + "requests.").length()), number(value));
            }
        });
        return new PluginMetrics(
                totals[0],
                totals[1],
                totals[2],
                totals[3],
                totals[4],
                totals[5],
                totals[6],
                number(accumulators.get(PREFIX + "peakBufferedBytes")),
                number(accumulators.get(PREFIX + "peakReadAheadBytes")),
                totals[7],
                byOperation);
    }

    /** The plugin metrics of this JVM, or null if there are none or they cannot be read. */
    private static PluginMetrics readQuietly() {
        try {
            return PluginMBeans.platform().read();
        } catch (JMException unreadable) {
            return null;
        }
    }

    private static long[] totals(PluginMetrics m) {
        return new long[] {
            m.requests(),
            m.failedRequests(),
            m.retries(),
            m.throttledAttempts(),
            m.timedOutAttempts(),
            m.bytesUploaded(),
            m.bytesDownloaded(),
            m.backPressureBlockedMillis()
        };
    }

    private LongMaximum maximum(String figure) {
        String name = PREFIX + figure;
        LongMaximum maximum = (LongMaximum) (Object) context.getAccumulator(name);
        if (maximum == null) {
            maximum = new LongMaximum();
            context.addAccumulator(name, maximum);
        }
        return maximum;
    }

    private static long number(String value) {
        return value == null || value.isBlank() ? 0 : Long.parseLong(value.trim());
    }
}
