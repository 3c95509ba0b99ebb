package dev.flinks3.bench.checkpoint.model;

import dev.flinks3.bench.checkpoint.results.ContenderResult;
import dev.flinks3.bench.checkpoint.results.RunConfiguration;
import dev.flinks3.bench.checkpoint.results.S3Traffic;
import dev.flinks3.bench.checkpoint.stats.CheckpointStats;
import dev.flinks3.bench.checkpoint.stats.VertexCheckpointStats;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one contender's run asked of the store while it checkpointed, from the server's request log (requests by
 * S3 operation in the checkpointing phase) and Flink's checkpoint statistics: the inputs of {@link
 * CheckpointModel}. Counts are over all completed checkpoints of the run.
 *
 * @param plugin the contender's name
 * @param round the contender's round
 * @param checkpoints completed checkpoints
 * @param bytes the bytes they wrote (Flink's checkpointed size), in bytes
 * @param requests every request the server answered during the checkpointing phase
 * @param putObjects single-request uploads ({@code PutObject})
 * @param multipartUploads multipart uploads ({@code CreateMultipartUpload})
 * @param lookups existence checks and listings ({@code HeadObject}, {@code ListObjects}, {@code ListObjectsV2})
 * @param writeRequests requests S3's per-prefix write limit counts (PUT, POST, DELETE, COPY)
 * @param parallelism the job's parallelism
 * @param transferThreads RocksDB's upload threads per subtask
 * @param syncSeconds per checkpoint, the slowest subtask's synchronous part, start delay and alignment, summed,
 *     in seconds: what the store does not decide
 * @param measuredSeconds the checkpoints' end-to-end durations, summed, in seconds
 */
public record CheckpointWork(
        String plugin,
        int round,
        int checkpoints,
        double bytes,
        double requests,
        double putObjects,
        double multipartUploads,
        double lookups,
        double writeRequests,
        int parallelism,
        int transferThreads,
        double syncSeconds,
        double measuredSeconds) {

    /** RocksDB's upload threads per subtask when a run does not name them (Flink's default). */
    public static final int DEFAULT_TRANSFER_THREADS = 4;

    private static final List<String> LOOKUPS = List.of("HeadObject", "ListObjects", "ListObjectsV2");
    private static final List<String> WRITES = List.of(
            "PutObject",
            "CopyObject",
            "CreateMultipartUpload",
            "UploadPart",
            "UploadPartCopy",
            "CompleteMultipartUpload",
            "AbortMultipartUpload",
            "DeleteObject",
            "DeleteObjects");

    /**
     * The work of {@code result}'s run, or empty if it completed no checkpoint or the server's request log of its
     * checkpointing phase is missing (an external endpoint).
     */
    public static Optional<CheckpointWork> of(RunConfiguration configuration, ContenderResult result) {
        S3Traffic traffic = result.s3Traffic().get("checkpointing");
        if (result.run() == null || traffic == null) {
            return Optional.empty();
        }
        List<CheckpointStats> completed = result.run().checkpoints().stream()
                .filter(CheckpointStats::completed)
                .toList();
        if (completed.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Long> operations = traffic.requestsByOperation();
        Map<String, String> job = configuration.jobParameters();
        return Optional.of(new CheckpointWork(
                result.plugin().name(),
                result.round(),
                completed.size(),
                completed.stream()
                        .mapToLong(CheckpointStats::checkpointedSizeBytes)
                        .sum(),
                traffic.requests(),
                operations.getOrDefault("PutObject", 0L),
                operations.getOrDefault("CreateMultipartUpload", 0L),
                sum(operations, LOOKUPS),
                sum(operations, WRITES),
                Integer.parseInt(job.getOrDefault("parallelism", "1")),
                Integer.parseInt(
                        job.getOrDefault("rocksdb-transfer-threads", String.valueOf(DEFAULT_TRANSFER_THREADS))),
                completed.stream().mapToDouble(CheckpointWork::syncSeconds).sum(),
                completed.stream()
                                .mapToLong(CheckpointStats::endToEndDurationMs)
                                .sum()
                        / 1000.0));
    }

    /** Files uploaded: single-request uploads and multipart uploads. */
    public double files() {
        return putObjects + multipartUploads;
    }

    /** This run's work together with {@code other}'s (another round of the same contender). */
    public CheckpointWork plus(CheckpointWork other) {
        return new CheckpointWork(
                plugin,
                round,
                checkpoints + other.checkpoints,
                bytes + other.bytes,
                requests + other.requests,
                putObjects + other.putObjects,
                multipartUploads + other.multipartUploads,
                lookups + other.lookups,
                writeRequests + other.writeRequests,
                parallelism,
                transferThreads,
                syncSeconds + other.syncSeconds,
                measuredSeconds + other.measuredSeconds);
    }

    /**
     * One checkpoint of {@code bytesPerCheckpoint} at {@code targetParallelism}, shaped like this run's average
     * checkpoint: requests of every kind and the synchronous part grow with the bytes (the same request sizes,
     * the same files per byte), the synchronous part shrinks with the parallelism (each subtask snapshots its
     * share). The measured duration is unknown (0).
     *
     * @throws IllegalArgumentException if the bytes or the parallelism are not positive
     */
    public CheckpointWork scaledTo(double bytesPerCheckpoint, int targetParallelism) {
        if (!(bytesPerCheckpoint > 0) || targetParallelism < 1) {
            throw new IllegalArgumentException(
                    "bytes and parallelism must be positive, were " + bytesPerCheckpoint + " and " + targetParallelism);
        }
        // Totals over this run's checkpoints times this factor are one checkpoint of the new size.
        double factor = bytesPerCheckpoint / bytes;
        return new CheckpointWork(
                plugin,
                round,
                1,
                bytesPerCheckpoint,
                requests * factor,
                putObjects * factor,
                multipartUploads * factor,
                lookups * factor,
                writeRequests * factor,
                targetParallelism,
                transferThreads,
                syncSeconds * factor * parallelism / targetParallelism,
                0);
    }

    private static long sum(Map<String, Long> operations, List<String> names) {
        return names.stream().mapToLong(n -> operations.getOrDefault(n, 0L)).sum();
    }

    /** The slowest subtask of the vertex that wrote the most: its sync part, start delay and alignment, in s. */
    private static double syncSeconds(CheckpointStats checkpoint) {
        return checkpoint.vertices().stream()
                        .max(Comparator.comparingLong(VertexCheckpointStats::checkpointedSizeBytes))
                        .map(vertex -> vertex.subtasks().stream()
                                .mapToLong(s -> s.syncDurationMs() + s.startDelayMs() + s.alignmentDurationMs())
                                .max()
                                .orElse(0))
                        .orElse(0L)
                / 1000.0;
    }
}
