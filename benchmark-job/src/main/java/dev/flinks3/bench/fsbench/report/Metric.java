package dev.flinks3.bench.fsbench.report;

import dev.flinks3.bench.fsbench.WorkloadResult;
import java.util.function.ToDoubleFunction;

/** A figure reported per workload and contender, and whether more of it is better. */
public enum Metric {
    THROUGHPUT("Throughput", true, false, WorkloadResult::throughput),
    WALL_SECONDS("Wall seconds", false, false, WorkloadResult::wallSeconds),
    CLIENT_CPU_SECONDS("Client CPU seconds", false, false, WorkloadResult::clientCpuSeconds),
    SERVER_CPU_SECONDS("S3 server CPU seconds", false, false, WorkloadResult::serverCpuSeconds),
    /** Heap in use at its highest, garbage not yet collected included. */
    PEAK_HEAP_MIB("Peak heap MiB", false, true, r -> r.peakHeapBytes() / (1024.0 * 1024.0)),
    /** Heap in use right after a collection at its highest: what the process held. */
    PEAK_LIVE_HEAP_MIB("Peak live heap MiB (after GC)", false, true, r -> r.peakLiveHeapBytes() / (1024.0 * 1024.0)),
    /** Buffers from {@code ByteBuffer.allocateDirect} only: not Netty's cleaner-less pool, not CRT's native memory. */
    PEAK_DIRECT_MIB("Peak direct-buffer MiB", false, true, r -> r.peakDirectBytes() / (1024.0 * 1024.0)),
    S3_REQUESTS("S3 requests", false, true, r -> r.requests());

    private final String title;
    private final boolean higherIsBetter;
    private final boolean whole;
    private final ToDoubleFunction<WorkloadResult> extractor;

    Metric(String title, boolean higherIsBetter, boolean whole, ToDoubleFunction<WorkloadResult> extractor) {
        this.title = title;
        this.higherIsBetter = higherIsBetter;
        this.whole = whole;
        this.extractor = extractor;
    }

    /** The figure's name in reports. */
    public String title() {
        return title;
    }

    /** True for throughput, false for costs (time, CPU, memory, requests). */
    public boolean higherIsBetter() {
        return higherIsBetter;
    }

    /** Whether the figure is printed as a whole number (counts, MiB). */
    public boolean whole() {
        return whole;
    }

    /** This figure of one result. */
    public double of(WorkloadResult result) {
        return extractor.applyAsDouble(result);
    }
}
