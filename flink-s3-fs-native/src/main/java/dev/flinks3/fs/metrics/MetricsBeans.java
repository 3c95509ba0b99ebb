package dev.flinks3.fs.metrics;

import dev.flinks3.transfer.sdk.HttpPoolMetrics;
import dev.flinks3.transfer.sdk.OperationMetrics;
import java.io.Closeable;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The platform MBeans of one S3 client owner, registered in the domain {@value #DOMAIN} (Java
 * Management Extensions, {@code javax.management}): one {@link S3FileSystemMBean}
 * {@code dev.flinks3:type=S3FileSystem,scheme=<scheme>,endpoint=<endpoint>}, one {@link OperationBean}
 * per S3 operation, {@code dev.flinks3:type=S3Operation,scheme=...,endpoint=...,operation=<name>}, and one
 * {@link HttpPoolMBean} per HTTP connection pool, {@code dev.flinks3:type=HttpPool,scheme=...,endpoint=...,
 * pool=<async|blocking>}. Flink's JMX port, {@code jconsole} and the Prometheus JMX exporter agent read them.
 *
 * <p>The endpoint key is the host and port of {@code s3.endpoint} (characters other than letters,
 * digits, '.', '-' and '_' become '_'), or {@code aws-<region>} without a custom endpoint; it never holds
 * user info, paths or keys. Owners of one scheme and endpoint alive at once (two configurations in one
 * JVM) are told apart by a key {@code instance=2}, {@code 3}, ... on the later ones. {@link #close()}
 * unregisters every MBean. When the MBean server refuses a registration, a warning is logged and the
 * filesystem works on without MBeans. Thread-safe.
 */
public final class MetricsBeans implements Closeable {

    /** The ObjectName domain of every MBean of the plugin. */
    public static final String DOMAIN = "dev.flinks3";

    private static final Logger LOG = LoggerFactory.getLogger(MetricsBeans.class);
    private static final Pattern UNSAFE = Pattern.compile("[^A-Za-z0-9._-]");
    private static final int MAX_INSTANCES = 1_000;

    private final MBeanServer server;
    private final List<ObjectName> registered;

    private MetricsBeans(MBeanServer server, List<ObjectName> registered) {
        this.server = server;
        this.registered = List.copyOf(registered);
    }

    /** Registers the MBeans of {@code metrics} with the platform MBean server. */
    public static MetricsBeans register(String scheme, String endpoint, S3FileSystemMetrics metrics) {
        return register(ManagementFactory.getPlatformMBeanServer(), scheme, endpoint, metrics);
    }

    /**
     * Registers the MBeans of {@code metrics} with {@code server}, under the first free instance.
     *
     * @param scheme {@code s3} or {@code s3a}
     * @param endpoint the endpoint key, from {@link #endpointKey}
     */
    static MetricsBeans register(MBeanServer server, String scheme, String endpoint, S3FileSystemMetrics metrics) {
        List<ObjectName> names = new ArrayList<>();
        try {
            String base = "scheme=" + safe(scheme) + ",endpoint=" + safe(endpoint);
            for (int instance = 1; instance <= MAX_INSTANCES && names.isEmpty(); instance++) {
                String keys = instance == 1 ? base : base + ",instance=" + instance;
                ObjectName name = new ObjectName(DOMAIN + ":type=S3FileSystem," + keys);
                try {
                    server.registerMBean(new StandardMBean(metrics, S3FileSystemMBean.class), name);
                } catch (InstanceAlreadyExistsException taken) {
                    continue;
                }
                names.add(name);
                for (Map.Entry<String, OperationMetrics> operation :
                        metrics.requestMetrics().operations().entrySet()) {
                    ObjectName operationName = new ObjectName(
                            DOMAIN + ":type=S3Operation," + keys + ",operation=" + safe(operation.getKey()));
                    server.registerMBean(new OperationBean(operation.getValue()), operationName);
                    names.add(operationName);
                }
                HttpPoolMetrics pools = metrics.requestMetrics().httpPools();
                Map<String, Supplier<HttpPoolMetrics.Pool>> byRole = new LinkedHashMap<>();
                byRole.put("async", pools::async);
                byRole.put("blocking", pools::blocking);
                for (Map.Entry<String, Supplier<HttpPoolMetrics.Pool>> pool : byRole.entrySet()) {
                    ObjectName poolName = new ObjectName(DOMAIN + ":type=HttpPool," + keys + ",pool=" + pool.getKey());
                    server.registerMBean(
                            new StandardMBean(new HttpPoolBean(pool.getValue()), HttpPoolMBean.class), poolName);
                    names.add(poolName);
                }
            }
        } catch (JMException | RuntimeException e) {
            LOG.warn(
                    "Could not register the metrics MBeans of {}://{}; the filesystem works on without them",
                    scheme,
                    endpoint,
                    e);
            new MetricsBeans(server, names).close();
            return new MetricsBeans(server, List.of());
        }
        return new MetricsBeans(server, names);
    }

    /**
     * The endpoint key of an owner: the host and port of {@code endpoint}, or {@code aws-<region>} for
     * AWS's regional endpoint ({@code endpoint} null).
     */
    public static String endpointKey(URI endpoint, String region) {
        if (endpoint == null || endpoint.getHost() == null) {
            return safe("aws-" + region);
        }
        return safe(endpoint.getPort() < 0 ? endpoint.getHost() : endpoint.getHost() + "_" + endpoint.getPort());
    }

    private static String safe(String value) {
        return UNSAFE.matcher(value).replaceAll("_");
    }

    /** The name of the {@link S3FileSystemMBean}, or null if nothing was registered. */
    public ObjectName fileSystemName() {
        return registered.isEmpty() ? null : registered.get(0);
    }

    /** Every name registered, the {@link S3FileSystemMBean} first. */
    public List<ObjectName> names() {
        return registered;
    }

    /** Unregisters every MBean; names already gone are skipped. Idempotent. */
    @Override
    public void close() {
        for (ObjectName name : registered) {
            try {
                server.unregisterMBean(name);
            } catch (InstanceNotFoundException gone) {
                // unregistered before (close called twice) or by someone else: nothing to do
            } catch (JMException | RuntimeException e) {
                LOG.warn("Could not unregister the MBean {}", name, e);
            }
        }
    }
}
