package dev.flinks3.testserver;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * Request counts for a server running in another JVM (a benchmark's): {@code GET /__flinks3/requests}
 * answers {@code text/plain} lines {@code <Operation> <count> <serveMillis>} (serveMillis: the summed
 * time from arrival to answer of those requests, in ms) and {@code Total <count>};
 * {@code DELETE} on the same path resets them. The path cannot clash with S3: bucket names start with
 * a letter or digit. These requests are neither logged, delayed nor paced.
 */
final class RequestCountsEndpoint implements Filter {

    static final String PATH = "/__flinks3/requests";

    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final RequestLog log;

    RequestCountsEndpoint(RequestLog log) {
        this.log = log;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        if (!PATH.equals(http.getRequestURI())) {
            chain.doFilter(request, response);
            return;
        }
        HttpServletResponse out = (HttpServletResponse) response;
        switch (http.getMethod()) {
            case "GET" -> write(out, render(log.counts(), log.serveNanos()));
            case "DELETE" -> {
                log.clear();
                out.setStatus(HttpServletResponse.SC_NO_CONTENT);
            }
            default -> out.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
        }
    }

    static String render(Map<RequestKind, Long> counts, Map<RequestKind, Long> serveNanos) {
        StringBuilder text = new StringBuilder();
        Map<String, RequestKind> byName = new TreeMap<>();
        counts.keySet().forEach(kind -> byName.put(kind.operationName(), kind));
        byName.forEach((name, kind) -> text.append(name).append(' ').append(counts.get(kind)).append(' ')
                .append(serveNanos.getOrDefault(kind, 0L) / NANOS_PER_MILLI).append('\n'));
        text.append("Total ").append(counts.values().stream().mapToLong(Long::longValue).sum()).append('\n');
        return text.toString();
    }

    private static void write(HttpServletResponse response, String text) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        response.setContentType("text/plain; charset=utf-8");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
