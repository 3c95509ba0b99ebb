package dev.flinks3.bench.checkpoint.results;

import java.util.Map;

/**
 * What a contender's plugin itself counted during its run, read from its own metrics where it has them
 * (this repository's plugin: the platform MBeans of the domain {@code dev.flinks3}, summed over its
 * filesystem configurations; on a cluster, summed over the TaskManagers). Counters from the JVM's start.
 *
 * @param requests S3 requests (API calls) finished
 * @param failedRequests requests that failed after all attempts
 * @param retries attempts after the first of each request
 * @param throttledAttempts attempts answered with throttling (503 SlowDown, 429, ...)
 * @param timedOutAttempts attempts abandoned at the per-attempt timeout
 * @param bytesUploaded bytes uploaded in parts and single PutObjects
 * @param bytesDownloaded bytes of object bodies received by GetObject
 * @param peakBufferedBytes the most bytes held in upload part buffers at once (the largest of the JVMs)
 * @param peakReadAheadBytes the most bytes held in read-ahead windows at once (the largest of the JVMs)
 * @param backPressureBlockedMillis time writers were blocked by upload back-pressure, summed over writers
 * @param requestsByOperation requests per S3 operation name, operations without requests left out
 */
public record PluginMetrics(
        long requests,
        long failedRequests,
        long retries,
        long throttledAttempts,
        long timedOutAttempts,
        long bytesUploaded,
        long bytesDownloaded,
        long peakBufferedBytes,
        long peakReadAheadBytes,
        long backPressureBlockedMillis,
        Map<String, Long> requestsByOperation) {

    public PluginMetrics {
        requestsByOperation = Map.copyOf(requestsByOperation);
    }
}
