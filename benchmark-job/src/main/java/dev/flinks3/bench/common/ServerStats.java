package dev.flinks3.bench.common;

import java.util.Map;
import java.util.TreeMap;

/**
 * Cumulative figures of the S3 server's JVM since it started.
 *
 * @param cpuNanos CPU time of the server process in nanoseconds
 * @param requestsByOperation requests received per S3 operation name (PutObject, UploadPart, ...)
 * @param serveMillisByOperation per operation name, the summed time from each request's arrival at the
 *     server to its answer (emulated latency and pacing included), in ms
 */
public record ServerStats(long cpuNanos, Map<String, Long> requestsByOperation, Map<String, Long> serveMillisByOperation) {

    public ServerStats {
        requestsByOperation = Map.copyOf(requestsByOperation);
        serveMillisByOperation = Map.copyOf(serveMillisByOperation);
    }

    /** What happened between {@code earlier} and this snapshot; operations with no request are left out. */
    public ServerStats minus(ServerStats earlier) {
        return new ServerStats(cpuNanos - earlier.cpuNanos, difference(requestsByOperation, earlier.requestsByOperation),
                difference(serveMillisByOperation, earlier.serveMillisByOperation));
    }

    private static Map<String, Long> difference(Map<String, Long> later, Map<String, Long> earlier) {
        Map<String, Long> delta = new TreeMap<>();
        later.forEach((operation, value) -> {
            long difference = value - earlier.getOrDefault(operation, 0L);
            if (difference != 0) {
                delta.put(operation, difference);
            }
        });
        return delta;
    }

    /** All requests of all operations. */
    public long requests() {
        return requestsByOperation.values().stream().mapToLong(Long::longValue).sum();
    }
}
