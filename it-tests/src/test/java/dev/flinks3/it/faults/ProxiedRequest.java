package dev.flinks3.it.faults;

import dev.flinks3.testserver.RequestKind;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One request as the {@link FaultInjectingProxy} received it from the client, before any header was
 * removed.
 *
 * @param kind the S3 operation
 * @param url the path and query, percent-encoded
 * @param headers header values by lower-case name
 */
public record ProxiedRequest(RequestKind kind, String url, Map<String, List<String>> headers) {

    public ProxiedRequest {
        headers = Map.copyOf(headers);
    }

    /** The first value of a header, by case-insensitive name. */
    public Optional<String> header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /** The names of the headers that start with {@code prefix} (lower case). */
    public List<String> headersStartingWith(String prefix) {
        String lower = prefix.toLowerCase(Locale.ROOT);
        return headers.keySet().stream()
                .filter(name -> name.startsWith(lower))
                .sorted()
                .toList();
    }
}
