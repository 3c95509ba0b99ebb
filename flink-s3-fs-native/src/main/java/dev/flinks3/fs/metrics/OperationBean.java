package dev.flinks3.fs.metrics;

import dev.flinks3.transfer.sdk.LatencyHistogram;
import dev.flinks3.transfer.sdk.OperationMetrics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.ReflectionException;

/**
 * The requests of one S3 operation of one S3 client owner, as a platform MBean named {@code
 * dev.flinks3:type=S3Operation,scheme=<s3|s3a>,endpoint=<host_port>,operation=<name>}, e.g. {@code
 * operation=UploadPart} (see {@link MetricsBeans}). Every attribute is a counter from the owner's creation,
 * named as Prometheus expects ({@code ...Total}, times in seconds):
 *
 * <ul>
 *   <li>{@code RequestsTotal}, {@code FailedRequestsTotal}, {@code AttemptsTotal}, {@code RetriesTotal};
 *   <li>failed attempts by the class the AWS SDK gives them: {@code ThrottledAttemptsTotal}, {@code
 *       ErrorAnswerAttemptsTotal}, {@code TimedOutAttemptsTotal}, {@code IoErrorAttemptsTotal}, {@code
 *       OtherErrorAttemptsTotal};
 *   <li>the latency of whole requests (all attempts and backoffs) as a histogram with the fixed buckets of
 *       {@link LatencyHistogram#BOUNDS_SECONDS}: {@code LatencySecondsLe_<bound>} counts the requests that took
 *       at most {@code <bound>} seconds ({@code LatencySecondsLe_0.005} ... {@code LatencySecondsLe_+Inf},
 *       cumulative as Prometheus' {@code le} buckets), {@code LatencySecondsTotal} their summed latency;
 *   <li>where the attempts' time went, each a summed time with the count of attempts it covers: {@code
 *       ConnectionWaitSecondsTotal} / {@code ConnectionWaitsTotal}, {@code TimeToFirstByteSecondsTotal} /
 *       {@code FirstBytesTotal}, {@code BodySecondsTotal} / {@code BodiesTotal}.
 * </ul>
 *
 * <p>A {@link DynamicMBean} because a bucket's bound is part of its attribute's name. Thread-safe.
 */
final class OperationBean implements DynamicMBean {

    /** The prefix of the bucket attributes; the bound follows, as Prometheus writes it. */
    static final String BUCKET_PREFIX = "LatencySecondsLe_";

    private static final double NANOS_PER_SECOND = 1e9;

    private final Map<String, Function<OperationMetrics, Number>> counters;
    private final List<String> bucketNames;
    private final OperationMetrics metrics;
    private final MBeanInfo info;

    OperationBean(OperationMetrics metrics) {
        this.metrics = metrics;
        Map<String, Function<OperationMetrics, Number>> byName = new LinkedHashMap<>();
        byName.put("RequestsTotal", OperationMetrics::requests);
        byName.put("FailedRequestsTotal", OperationMetrics::failedRequests);
        byName.put("AttemptsTotal", OperationMetrics::attempts);
        byName.put("RetriesTotal", OperationMetrics::retries);
        byName.put("ThrottledAttemptsTotal", OperationMetrics::throttledAttempts);
        byName.put("ErrorAnswerAttemptsTotal", OperationMetrics::errorAnswerAttempts);
        byName.put("TimedOutAttemptsTotal", OperationMetrics::timedOutAttempts);
        byName.put("IoErrorAttemptsTotal", OperationMetrics::ioErrorAttempts);
        byName.put("OtherErrorAttemptsTotal", OperationMetrics::otherErrorAttempts);
        byName.put("LatencySecondsTotal", m -> m.latency().sumSeconds());
        byName.put("ConnectionWaitSecondsTotal", m -> m.connectionWaitNanos() / NANOS_PER_SECOND);
        byName.put("ConnectionWaitsTotal", OperationMetrics::connectionWaits);
        byName.put("TimeToFirstByteSecondsTotal", m -> m.timeToFirstByteNanos() / NANOS_PER_SECOND);
        byName.put("FirstBytesTotal", OperationMetrics::firstBytes);
        byName.put("BodySecondsTotal", m -> m.bodyNanos() / NANOS_PER_SECOND);
        byName.put("BodiesTotal", OperationMetrics::bodies);
        this.counters = Collections.unmodifiableMap(byName);
        List<String> buckets = new ArrayList<>();
        for (double bound : LatencyHistogram.BOUNDS_SECONDS) {
            buckets.add(BUCKET_PREFIX + le(bound));
        }
        buckets.add(BUCKET_PREFIX + "+Inf");
        this.bucketNames = List.copyOf(buckets);

        List<MBeanAttributeInfo> attributes = new ArrayList<>();
        counters.forEach((name, reader) -> attributes.add(new MBeanAttributeInfo(
                name,
                name.contains("Seconds") ? "double" : "long",
                "counter of " + metrics.operation() + " requests",
                true,
                false,
                false)));
        for (String bucket : bucketNames) {
            attributes.add(new MBeanAttributeInfo(
                    bucket,
                    "long",
                    metrics.operation() + " requests that took at most " + bucket.substring(BUCKET_PREFIX.length())
                            + " s",
                    true,
                    false,
                    false));
        }
        this.info = new MBeanInfo(
                OperationBean.class.getName(),
                "The requests of one S3 operation",
                attributes.toArray(new MBeanAttributeInfo[0]),
                null,
                new MBeanOperationInfo[0],
                null);
    }

    /** A bound as Prometheus writes an {@code le} label: {@code 0.005}, {@code 1.0}, {@code 60.0}. */
    static String le(double bound) {
        return String.format(Locale.ROOT, "%s", bound);
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        Function<OperationMetrics, Number> counter = counters.get(attribute);
        if (counter != null) {
            Number value = counter.apply(metrics);
            return value instanceof Double ? value : Long.valueOf(value.longValue());
        }
        int bucket = bucketNames.indexOf(attribute);
        if (bucket < 0) {
            throw new AttributeNotFoundException("No attribute " + attribute + " of " + metrics.operation());
        }
        return metrics.latency().cumulativeCount(bucket);
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
        AttributeList list = new AttributeList();
        for (String name : attributes) {
            try {
                list.add(new Attribute(name, getAttribute(name)));
            } catch (AttributeNotFoundException unknown) {
                // left out, as the JMX contract has it for attributes that cannot be read
            }
        }
        return list;
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
        throw new AttributeNotFoundException("Read-only: " + attribute.getName());
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature) throws ReflectionException {
        throw new ReflectionException(new UnsupportedOperationException(actionName), "No operations");
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        return info;
    }
}
