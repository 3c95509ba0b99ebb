package dev.flinks3.testserver;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One S3 request as the server received it, recorded when it arrived (before any emulated latency).
 *
 * @param kind the S3 operation
 * @param method the HTTP method
 * @param bucket the bucket named by the path, empty for the service root
 * @param key the decoded object key, empty for bucket-level requests
 * @param startNanos arrival time on the {@link System#nanoTime()} clock of the server's JVM
 * @param headers request headers by lower-case name, unmodifiable
 */
public record RequestRecord(
        RequestKind kind,
        String method,
        String bucket,
        String key,
        long startNanos,
        Map<String, List<String>> headers) {

    public RequestRecord {
        headers = Map.copyOf(headers);
    }

    /** The first value of a request header, by case-insensitive name. */
    public Optional<String> header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }
}
