package dev.flinks3.bench.checkpoint.local;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.List;

/**
 * This JVM's CPU time and peak heap use, for the contender's figures. Peak heap is the sum of the
 * heap pools' peaks since start (an upper bound of the true peak).
 */
final class JvmMeter {

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP)
            .toList();

    /** CPU seconds of all threads of this process so far. */
    double cpuSeconds() {
        return os.getProcessCpuTime() / 1e9;
    }

    /** Sum of the heap pools' peak use, bytes. */
    long peakHeapBytes() {
        return heapPools.stream().mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
    }
}
