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
 * <p>The HTTP pools' leased and idle connections are read as {@value #POOL_LEASED} and {@value #POOL_IDLE} of the
 * pool MBeans ({@code dev.flinks3:type=HttpPool,*}, one per pool, summed); a plugin without them reads -1 for both,
 * and the report says they were not sampled.
 */
final class PluginGauges {

    static final String BUFFERED = "BufferedBytes";
    static final String READ_AHEAD = "ReadAheadBytes";
    static final String PARTS_IN_FLIGHT = "PartsInFlight";
    /** Multipart uploads the plugin started and neither completed nor aborted. */
    static final String UPLOADS_OPEN = "MultipartUploadsOpen";
    /** Connections leased from the plugin's HTTP pools (every pool, summed). */
    static final String POOL_LEASED = "LeasedConnections";
    /** Idle connections the plugin's HTTP pools keep (every pool, summed). */
    static final String POOL_IDLE = "IdleConnections";

    private static final String FILE_SYSTEMS = PluginMBeans.DOMAIN + ":type=S3FileSystem,*";
    private static final String POOLS = PluginMBeans.DOMAIN + ":type=HttpPool,*";

    private PluginGauges() {}

    /**
     * An attribute summed over the plugin's filesystem MBeans, or over its HTTP pool MBeans for {@link #POOL_LEASED}
     * and {@link #POOL_IDLE}.
     *
     * @return the sum; -1 if the process has no such MBean, one lacks the attribute, or it cannot be read
     */
    static long sum(MBeanServerConnection mbeans, String attribute) {
        boolean pool = attribute.equals(POOL_LEASED) || attribute.equals(POOL_IDLE);
        try {
            Set<ObjectName> names = mbeans.queryNames(new ObjectName(pool ? POOLS : FILE_SYSTEMS), null);
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
        return sum(mbeans, UPLOADS_OPEN);
    }
}
