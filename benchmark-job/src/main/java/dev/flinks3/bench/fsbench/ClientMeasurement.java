package dev.flinks3.bench.fsbench;

import dev.flinks3.bench.fsbench.workloads.FsWorkload;

/**
 * What a contender's JVM measured of one workload, sent to the benchmark process.
 *
 * @param workload the workload
 * @param wallSeconds wall time of the timed part in seconds
 * @param bytes bytes written or read by the timed part
 * @param operations files written, reads made or objects deleted by the timed part
 * @param clientCpuSeconds CPU time of the contender's whole process during the timed part, in seconds
 * @param peakHeapBytes sum over heap memory pools of each pool's peak use during the timed part, in bytes
 * @param peakLiveHeapBytes the most heap in use right after a collection during the timed part, in bytes
 * @param peakDirectBytes the largest use of direct buffers sampled during the timed part, in bytes
 * @param method how the plugin was driven, e.g. {@code ByteBufferReadable} or {@code seek+read}
 * @param error why the workload failed, empty if it did not
 */
public record ClientMeasurement(
        FsWorkload workload,
        double wallSeconds,
        long bytes,
        long operations,
        double clientCpuSeconds,
        long peakHeapBytes,
        long peakLiveHeapBytes,
        long peakDirectBytes,
        String method,
        String error) {

    /** A workload that failed before or while its timed part ran. */
    public static ClientMeasurement failed(FsWorkload workload, String method, String error) {
        return new ClientMeasurement(workload, 0, 0, 0, 0, 0, 0, 0, method, error);
    }
}
