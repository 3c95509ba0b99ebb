package dev.flinks3.bench.checkpoint.results;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Reads this repository's plugin's own metrics in this JVM: its platform MBeans ({@code
 * dev.flinks3:type=S3FileSystem,...} and {@code dev.flinks3:type=S3Operation,...}, documented in
 * docs/metrics.md), summed over every filesystem configuration registered, peaks as the
 * largest. Only attribute names are used, so it works whatever class loader loaded the plugin (in a
 * contender JVM or a TaskManager, Flink's plugin class loader).
 */
public final class PluginMBeans {

    /** The plugin's ObjectName domain. */
    public static final String DOMAIN = "dev.flinks3";

    private final MBeanServer server;

    PluginMBeans(MBeanServer server) {
        this.server = server;
    }

    /** The plugin MBeans of this JVM's platform MBean server. */
    public static PluginMBeans platform() {
        return new PluginMBeans(ManagementFactory.getPlatformMBeanServer());
    }

    /**
     * The plugin's metrics now, or null if no plugin MBean is registered (another plugin ran).
     *
     * @throws JMException if a registered MBean cannot be read
     */
    public PluginMetrics read() throws JMException {
        Set<ObjectName> fileSystems = server.queryNames(new ObjectName(DOMAIN + ":type=S3FileSystem,*"), null);
        if (fileSystems.isEmpty()) {
            return null;
        }
        long[] sums = new long[8];
        long peakBuffered = 0;
        long peakReadAhead = 0;
        for (ObjectName name : fileSystems) {
            sums[0] += number(name, "RequestsTotal");
            sums[1] += number(name, "FailedRequestsTotal");
            sums[2] += number(name, "RetriesTotal");
            sums[3] += number(name, "ThrottledAttemptsTotal");
            sums[4] += number(name, "TimedOutAttemptsTotal");
            sums[5] += number(name, "UploadedBytesTotal");
            sums[6] += number(name, "DownloadedBytesTotal");
            sums[7] += Math.round(
                    ((Number) server.getAttribute(name, "BackPressureBlockedSecondsTotal")).doubleValue() * 1000);
            peakBuffered = Math.max(peakBuffered, number(name, "PeakBufferedBytes"));
            peakReadAhead = Math.max(peakReadAhead, number(name, "PeakReadAheadBytes"));
        }
        Map<String, Long> byOperation = new TreeMap<>();
        for (ObjectName name : server.queryNames(new ObjectName(DOMAIN + ":type=S3Operation,*"), null)) {
            long requests = number(name, "RequestsTotal");
            if (requests > 0) {
                byOperation.merge(name.getKeyProperty("operation"), requests, Long::sum);
            }
        }
        return new PluginMetrics(
                sums[0],
                sums[1],
                sums[2],
                sums[3],
                sums[4],
                sums[5],
                sums[6],
                peakBuffered,
                peakReadAhead,
                sums[7],
                byOperation);
    }

    private long number(ObjectName name, String attribute) throws JMException {
        return ((Number) server.getAttribute(name, attribute)).longValue();
    }
}
