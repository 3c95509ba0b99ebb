package dev.flinks3.bench.checkpoint.results;

import dev.flinks3.bench.common.PluginInfo;
import java.util.Map;

/**
 * One contender's run: its plugin, what the job did, or why it failed.
 *
 * @param plugin the plugin
 * @param round the round (1-based) when contenders run more than once
 * @param run the run's figures; null if it failed before producing any
 * @param error why the run failed, empty if it did not
 * @param clientCpuSeconds CPU seconds of the contender's JVM (Flink, RocksDB and the plugin)
 * @param peakHeapBytes the largest heap use sampled in the contender's JVM
 * @param s3Traffic S3 requests per phase ({@code checkpointing}, {@code restore}), empty for an external endpoint
 * @param serverCpuSeconds CPU seconds the embedded S3 server spent during the run (the CPU of the process that
 *     hosts it), 0 for an external endpoint or when not measured
 * @param pluginMetrics what the plugin itself counted, or null for a plugin without metrics of its own
 */
public record ContenderResult(
        PluginInfo plugin,
        int round,
        RunResult run,
        String error,
        double clientCpuSeconds,
        long peakHeapBytes,
        Map<String, S3Traffic> s3Traffic,
        double serverCpuSeconds,
        PluginMetrics pluginMetrics) {

    public ContenderResult {
        s3Traffic = Map.copyOf(s3Traffic);
    }

    /** A result without the plugin's own metrics. */
    public ContenderResult(
            PluginInfo plugin,
            int round,
            RunResult run,
            String error,
            double clientCpuSeconds,
            long peakHeapBytes,
            Map<String, S3Traffic> s3Traffic,
            double serverCpuSeconds) {
        this(plugin, round, run, error, clientCpuSeconds, peakHeapBytes, s3Traffic, serverCpuSeconds, null);
    }

    /** Whether the run finished, its restore verified. */
    public boolean succeeded() {
        return error.isEmpty()
                && run != null
                && run.restore() != null
                && run.restore().verified();
    }

    /** The same result with S3 traffic and the server's CPU seconds attached. */
    public ContenderResult withServer(Map<String, S3Traffic> traffic, double serverCpu) {
        return new ContenderResult(
                plugin, round, run, error, clientCpuSeconds, peakHeapBytes, traffic, serverCpu, pluginMetrics);
    }

    /** The same result as round {@code number}. */
    public ContenderResult withRound(int number) {
        return new ContenderResult(
                plugin,
                number,
                run,
                error,
                clientCpuSeconds,
                peakHeapBytes,
                s3Traffic,
                serverCpuSeconds,
                pluginMetrics);
    }

    /** The same result with the plugin's own metrics attached (null for none). */
    public ContenderResult withPluginMetrics(PluginMetrics metrics) {
        return new ContenderResult(
                plugin, round, run, error, clientCpuSeconds, peakHeapBytes, s3Traffic, serverCpuSeconds, metrics);
    }
}
