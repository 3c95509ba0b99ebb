package dev.flinks3.bench.fs;

import java.util.Map;
import java.util.TreeMap;

/**
 * Cumulative figures of the S3 server's JVM since it started.
 *
 * @param cpuNanos CPU time of the server process in nanoseconds
 * @param requestsByOperation requests received per S3 operation name (PutObject, UploadPart, ...)
 */
public record ServerStats(long cpuNanos, Map<String, Long> requestsByOperation) {

    public ServerStats {
        requestsByOperation = Map.copyOf(requestsByOperation);
    }

    /** What happened between {@code earlier} and this snapshot; operations with no request are left out. */
    public ServerStats minus(ServerStats earlier) {
        Map<String, Long> delta = new TreeMap<>();
        requestsByOperation.forEach((operation, count) -> {
            long difference = count - earlier.requestsByOperation.getOrDefault(operation, 0L);
            if (difference != 0) {
                delta.put(operation, difference);
            }
        });
        return new ServerStats(cpuNanos - earlier.cpuNanos, delta);
    }

    /** All requests of all operations. */
    public long requests() {
        return requestsByOperation.values().stream().mapToLong(Long::longValue).sum();
    }
}
