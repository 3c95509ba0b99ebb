package dev.flinks3.bench.fsbench;

import dev.flinks3.bench.common.ServerTraffic;
import dev.flinks3.bench.fsbench.workloads.FsWorkload;
import java.util.Map;

/**
 * One workload of one contender in one round, as written to {@code results.json}.
 *
 * @param contender the contender's name, e.g. {@code ours} or {@code native}
 * @param round the round, 1-based
 * @param workload the workload
 * @param throughput MB/s (10^6 bytes) or operations/s, per {@link FsWorkload#unit()}; 0 if failed
 * @param wallSeconds wall time of the timed part in seconds
 * @param clientCpuSeconds CPU time of the contender's process during the timed part, in seconds
 * @param serverCpuSeconds CPU time of the S3 server's process during the timed part, in seconds
 * @param serverWaitSeconds how long the timed part waited to start until the S3 server's process was quiet
 *     ({@link ServerProcess#awaitQuiet}), in seconds; 0 without the JIT warm-up
 * @param serverQuiet whether the server was quiet when the timed part started (true without the JIT warm-up, which
 *     does not wait)
 * @param peakHeapBytes peak heap use of the contender's process during the timed part, in bytes
 * @param peakLiveHeapBytes peak heap in use right after a collection in the contender's process, in bytes
 * @param peakDirectBytes peak direct-buffer use sampled in the contender's process, in bytes
 * @param requests S3 requests the server received during the timed part
 * @param requestsByOperation those requests per S3 operation name
 * @param serveMillisByOperation per S3 operation name, the server's summed time from arrival to answer, in ms
 * @param bytes bytes written or read
 * @param operations files written, reads made or objects deleted
 * @param method how the plugin was driven
 * @param failure why the workload failed (including wrong bytes read back), empty if it did not
 */
public record WorkloadResult(
        String contender,
        int round,
        FsWorkload workload,
        double throughput,
        double wallSeconds,
        double clientCpuSeconds,
        double serverCpuSeconds,
        double serverWaitSeconds,
        boolean serverQuiet,
        long peakHeapBytes,
        long peakLiveHeapBytes,
        long peakDirectBytes,
        long requests,
        Map<String, Long> requestsByOperation,
        Map<String, Long> serveMillisByOperation,
        long bytes,
        long operations,
        String method,
        String failure) {

    private static final double NANOS_PER_SECOND = 1e9;
    private static final double BYTES_PER_MB = 1e6;

    public WorkloadResult {
        requestsByOperation = Map.copyOf(requestsByOperation);
        serveMillisByOperation = Map.copyOf(serveMillisByOperation);
    }

    /**
     * Joins what the contender measured, what the server saw during the timed part, and the outcome
     * of verifying the bytes.
     *
     * @param quiet how the server was found before the timed part, null if it was not waited for
     * @param verificationError why the bytes read back or written were wrong, empty if they were right
     */
    public static WorkloadResult of(
            String contender,
            int round,
            ClientMeasurement client,
            ServerTraffic server,
            ServerProcess.Quiet quiet,
            String verificationError) {
        String failure = !client.error().isEmpty() ? client.error() : verificationError;
        double throughput = failure.isEmpty() ? throughput(client) : 0;
        return new WorkloadResult(
                contender,
                round,
                client.workload(),
                throughput,
                client.wallSeconds(),
                client.clientCpuSeconds(),
                server.cpuNanos() / NANOS_PER_SECOND,
                quiet == null ? 0 : quiet.waited().toNanos() / NANOS_PER_SECOND,
                quiet == null || quiet.quiet(),
                client.peakHeapBytes(),
                client.peakLiveHeapBytes(),
                client.peakDirectBytes(),
                server.requests(),
                server.requestsByOperation(),
                server.serveMillisByOperation(),
                client.bytes(),
                client.operations(),
                client.method(),
                failure);
    }

    /** Whether the workload failed or returned wrong bytes. */
    public boolean failed() {
        return !failure.isEmpty();
    }

    private static double throughput(ClientMeasurement client) {
        if (client.wallSeconds() <= 0) {
            return 0;
        }
        return client.workload().unit() == FsWorkload.Unit.MEGABYTES
                ? client.bytes() / BYTES_PER_MB / client.wallSeconds()
                : client.operations() / client.wallSeconds();
    }
}
