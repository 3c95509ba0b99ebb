package dev.flinks3.bench.soak;

import dev.flinks3.bench.checkpoint.results.PluginMBeans;
import java.io.IOException;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;

/**
 * The plugin's gauges a soak samples, read by attribute name from its MBeans ({@code
 * dev.flinks3:type=S3FileSystem,*}, one per filesystem configuration, summed) in the process a {@link
 * MBeanServerConnection} reaches: this JVM's platform server or a Flink process's over JMX. The one place that names
 * them: a gauge renamed in the plugin is renamed here.
 *
 * <p>The HTTP pools' leased and idle connections are read as {@value #POOL_LEASED} and {@value #POOL_IDLE}; a plugin
 * whose MBeans lack them reads -1 for both, and the report says they were not sampled.
 */
final class PluginGauges {

    static final String BUFFERED = "BufferedBytes";
    static final String READ_AHEAD = "ReadAheadBytes";
    static final String PARTS_IN_FLIGHT = "PartsInFlight";
    static final String UPLOADS_STARTED = "MultipartUploadsStarted";
    static final String UPLOADS_COMPLETED = "MultipartUploadsCompleted";
    static final String UPLOADS_ABORTED = "MultipartUploadsAborted";
    /** Connections leased from the plugin's HTTP pools (both pools of a filesystem configuration, summed). */
    static final String POOL_LEASED = "HttpConnectionsLeased";
    /** Idle connections the plugin's HTTP pools keep (both pools of a filesystem configuration, summed). */
    static final String POOL_IDLE = "HttpConnectionsIdle";

    private PluginGauges() {}

    /**
     * An attribute summed over the plugin's filesystem MBeans.
     *
     * @return the sum; -1 if the process has no plugin MBean, one lacks the attribute, or it cannot be read
     */
    static long sum(MBeanServerConnection mbeans, String attribute) {
        try {
            Set<ObjectName> names =
                    mbeans.queryNames(new ObjectName(PluginMBeans.DOMAIN + ":type=S3FileSystem,*"), null);
            if (names.isEmpty()) {
                return -1;
            }
            long sum = 0;
            for (ObjectName name : names) {
                sum += ((Number) mbeans.getAttribute(name, attribute)).longValue();
            }
            return sum;
        } catch (JMException | IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Uploads the plugin started and neither completed nor aborted; -1 if unreadable. */
    static long uploadsOpen(MBeanServerConnection mbeans) {
        long started = sum(mbeans, UPLOADS_STARTED);
        long completed = sum(mbeans, UPLOADS_COMPLETED);
        long aborted = sum(mbeans, UPLOADS_ABORTED);
        return started < 0 || completed < 0 || aborted < 0 ? -1 : started - completed - aborted;
    }
}
