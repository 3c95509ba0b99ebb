package dev.flinks3.bench.checkpoint.local;

import dev.flinks3.bench.checkpoint.results.S3Traffic;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts the requests the embedded S3 server received in a time window, per S3 operation, and the
 * bytes GetObject requests asked for: a {@code Range} header's length, or the whole object's size
 * (read from the server's filesystem backend, which keeps each object as a file
 * {@code <baseDir>/<bucket>/<key>}). Windows are on {@link System#nanoTime()} of this JVM, the
 * server's clock.
 */
final class S3TrafficMeter {

    // RFC 9110 byte ranges as S3 accepts them: "bytes=first-last", "bytes=first-", "bytes=-suffix".
    private static final Pattern RANGE = Pattern.compile("bytes=(\\d*)-(\\d*)");

    private final EmbeddedS3Server server;

    S3TrafficMeter(EmbeddedS3Server server) {
        this.server = server;
    }

    /** The requests that arrived in {@code [startNanos, endNanos]}. */
    S3Traffic between(long startNanos, long endNanos) {
        List<RequestRecord> requests = server.requestLog().entries().stream()
                .filter(r -> r.startNanos() >= startNanos && r.startNanos() <= endNanos)
                .toList();
        Map<String, Long> byOperation = new TreeMap<>();
        long bytesRead = 0;
        for (RequestRecord request : requests) {
            byOperation.merge(request.kind().operationName(), 1L, Long::sum);
            if (request.kind() == RequestKind.GET_OBJECT) {
                bytesRead += bytesAskedFor(request);
            }
        }
        return new S3Traffic(requests.size(), byOperation, bytesRead);
    }

    private long bytesAskedFor(RequestRecord get) {
        long size = objectSize(get.bucket(), get.key());
        return get.header("range").map(range -> rangeLength(range, size)).orElse(size);
    }

    /**
     * The bytes a Range header selects of an object of {@code size} bytes (0 if the size is unknown
     * and the range is open-ended).
     */
    static long rangeLength(String range, long size) {
        Matcher m = RANGE.matcher(range.trim());
        if (!m.matches()) {
            return size;
        }
        String first = m.group(1);
        String last = m.group(2);
        if (first.isEmpty()) {
            return last.isEmpty() ? size : Math.min(Long.parseLong(last), size);
        }
        long from = Long.parseLong(first);
        long to = last.isEmpty() ? size - 1 : Math.min(Long.parseLong(last), size > 0 ? size - 1 : Long.MAX_VALUE);
        return Math.max(0, to - from + 1);
    }

    private long objectSize(String bucket, String key) {
        Path file = server.baseDir().resolve(bucket).resolve(key);
        try {
            return Files.isRegularFile(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }
}
