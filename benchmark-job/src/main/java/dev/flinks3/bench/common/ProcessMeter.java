package dev.flinks3.bench.common;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Measures this JVM during one timed part (a workload of the filesystem benchmark, a contender's whole run
 * of the checkpoint benchmark): process CPU time (all threads, including the plugin's and
 * the garbage collector's), the peak heap use (per-pool peaks from {@link MemoryPoolMXBean}, reset
 * at the start, summed: an upper bound of the true peak, garbage included), the peak live heap (the
 * most heap in use right after any collection during the workload: what the process really held,
 * without the garbage a busy allocator leaves between collections; the peak heap if no collection
 * ran) and the peak use of direct buffers, which the JVM does not track and is therefore sampled
 * every {@value #DIRECT_SAMPLE_MS} ms. One timed part at a time.
 */
public final class ProcessMeter implements AutoCloseable {

    public static final long DIRECT_SAMPLE_MS = 10;

    /** What the meter saw between {@link #start()} and {@link #stop()}. */
    public record Sample(long cpuNanos, long peakHeapBytes, long peakLiveHeapBytes, long peakDirectBytes) {}

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP)
            .toList();
    private final BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(pool -> pool.getName().equals("direct"))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("this JVM reports no direct buffer pool"));
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "direct-memory-sampler");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicLong peakDirect = new AtomicLong();
    private final Set<String> heapPoolNames =
            heapPools.stream().map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
    private final AtomicLong peakLive = new AtomicLong(-1);
    private final NotificationListener afterCollection = this::collected;
    private volatile boolean measuring;
    private ScheduledFuture<?> sampling;
    private long cpuAtStart;

    public ProcessMeter() {
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) collector).addNotificationListener(afterCollection, null, null);
        }
    }

    /** Resets the peaks and notes the CPU time; call right before the timed part. */
    public void start() {
        peakLive.set(-1);
        measuring = true;
        heapPools.forEach(MemoryPoolMXBean::resetPeakUsage);
        peakDirect.set(direct.getMemoryUsed());
        sampling = sampler.scheduleAtFixedRate(
                () -> peakDirect.accumulateAndGet(direct.getMemoryUsed(), Math::max),
                DIRECT_SAMPLE_MS,
                DIRECT_SAMPLE_MS,
                TimeUnit.MILLISECONDS);
        cpuAtStart = os.getProcessCpuTime();
    }

    /** The figures since {@link #start()}; call right after the timed part. */
    public Sample stop() {
        long cpu = os.getProcessCpuTime() - cpuAtStart;
        measuring = false;
        sampling.cancel(false);
        long heap = heapPools.stream()
                .mapToLong(pool -> pool.getPeakUsage().getUsed())
                .sum();
        long live = peakLive.get() < 0 ? heap : Math.min(heap, peakLive.get());
        long directPeak = peakDirect.accumulateAndGet(direct.getMemoryUsed(), Math::max);
        return new Sample(cpu, heap, live, directPeak);
    }

    /** Heap in use right after a collection, summed over the heap pools. */
    private void collected(Notification notification, Object handback) {
        if (!measuring
                || !GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        long afterGc = info.getGcInfo().getMemoryUsageAfterGc().entrySet().stream()
                .filter(pool -> heapPoolNames.contains(pool.getKey()))
                .mapToLong(pool -> pool.getValue().getUsed())
                .sum();
        peakLive.accumulateAndGet(afterGc, Math::max);
    }

    @Override
    public void close() {
        sampler.shutdownNow();
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            try {
                ((NotificationEmitter) collector).removeNotificationListener(afterCollection);
            } catch (javax.management.ListenerNotFoundException e) {
                // Never added to this collector: nothing to remove.
            }
        }
    }
}
