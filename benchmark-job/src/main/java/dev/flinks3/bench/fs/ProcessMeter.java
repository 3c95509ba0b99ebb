package dev.flinks3.bench.fs;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures this JVM during one workload: process CPU time (all threads, including the plugin's and
 * the garbage collector's), the peak heap use (per-pool peaks from {@link MemoryPoolMXBean}, reset
 * at the start, summed: an upper bound of the true peak) and the peak use of direct buffers, which
 * the JVM does not track and is therefore sampled every {@value #DIRECT_SAMPLE_MS} ms.
 * One workload at a time.
 */
final class ProcessMeter implements AutoCloseable {

    static final long DIRECT_SAMPLE_MS = 10;

    /** What the meter saw between {@link #start()} and {@link #stop()}. */
    record Sample(long cpuNanos, long peakHeapBytes, long peakDirectBytes) {}

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
    private ScheduledFuture<?> sampling;
    private long cpuAtStart;

    /** Resets the peaks and notes the CPU time; call right before the timed part. */
    void start() {
        heapPools.forEach(MemoryPoolMXBean::resetPeakUsage);
        peakDirect.set(direct.getMemoryUsed());
        sampling = sampler.scheduleAtFixedRate(
                () -> peakDirect.accumulateAndGet(direct.getMemoryUsed(), Math::max),
                DIRECT_SAMPLE_MS, DIRECT_SAMPLE_MS, TimeUnit.MILLISECONDS);
        cpuAtStart = os.getProcessCpuTime();
    }

    /** The figures since {@link #start()}; call right after the timed part. */
    Sample stop() {
        long cpu = os.getProcessCpuTime() - cpuAtStart;
        sampling.cancel(false);
        long heap = heapPools.stream().mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
        long directPeak = peakDirect.accumulateAndGet(direct.getMemoryUsed(), Math::max);
        return new Sample(cpu, heap, directPeak);
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }
}
