package dev.flinks3.bench.checkpoint.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.flinks3.bench.common.ServerTraffic;
import dev.flinks3.testserver.RequestKind;
import java.util.Map;

/**
 * The S3 requests the embedded server received during one phase of a run.
 *
 * @param requests total requests
 * @param requestsByOperation requests per S3 operation name (PutObject, UploadPart, GetObject, ...)
 * @param bytesRead the bytes the server sent in its answers to GetObject, in bytes: the object bytes
 *     of each whole or ranged GET as the client received them (an injected error's document adds its
 *     few hundred bytes). Results written before this counted the bytes the requests asked for,
 *     which is the same unless a range ran past the object's end.
 * @param serverCpuNanos the server process's CPU time during the phase, all its threads, in ns (0 in results
 *     written before it was recorded)
 */
public record S3Traffic(
        long requests,
        Map<String, Long> requestsByOperation,
        long bytesRead,
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) long serverCpuNanos) {

    public S3Traffic {
        requestsByOperation = Map.copyOf(requestsByOperation);
    }

    /** Traffic without the server's CPU time. */
    public S3Traffic(long requests, Map<String, Long> requestsByOperation, long bytesRead) {
        this(requests, requestsByOperation, bytesRead, 0);
    }

    /** A phase's traffic from the difference of the server's readings at its start and end. */
    public static S3Traffic of(ServerTraffic phase) {
        return new S3Traffic(
                phase.requests(),
                phase.requestsByOperation(),
                phase.bytesSent(RequestKind.GET_OBJECT),
                phase.cpuNanos());
    }
}
