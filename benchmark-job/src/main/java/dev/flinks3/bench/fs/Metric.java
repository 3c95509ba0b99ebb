package dev.flinks3.bench.fs;

import java.util.function.ToDoubleFunction;

/** A figure reported per workload and contender, and whether more of it is better. */
public enum Metric {
    THROUGHPUT("Throughput", true, WorkloadResult::throughput),
    WALL_SECONDS("Wall seconds", false, WorkloadResult::wallSeconds),
    CLIENT_CPU_SECONDS("Client CPU seconds", false, WorkloadResult::clientCpuSeconds),
    SERVER_CPU_SECONDS("S3 server CPU seconds", false, WorkloadResult::serverCpuSeconds),
    PEAK_HEAP_MIB("Peak heap MiB", false, r -> r.peakHeapBytes() / (1024.0 * 1024.0)),
    S3_REQUESTS("S3 requests", false, r -> r.requests());

    private final String title;
    private final boolean higherIsBetter;
    private final ToDoubleFunction<WorkloadResult> extractor;

    Metric(String title, boolean higherIsBetter, ToDoubleFunction<WorkloadResult> extractor) {
        this.title = title;
        this.higherIsBetter = higherIsBetter;
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

    /** This figure of one result. */
    public double of(WorkloadResult result) {
        return extractor.applyAsDouble(result);
    }
}
