package dev.flinks3.bench.checkpoint.results;

import java.util.Map;

/**
 * The S3 requests the embedded server received during one phase of a run.
 *
 * @param requests total requests
 * @param requestsByOperation requests per S3 operation name (PutObject, UploadPart, GetObject, ...)
 * @param bytesRead bytes GetObject requests asked for (ranged length, or the object's size)
 */
public record S3Traffic(long requests, Map<String, Long> requestsByOperation, long bytesRead) {

    public S3Traffic {
        requestsByOperation = Map.copyOf(requestsByOperation);
    }
}
