package dev.flinks3.testserver;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Records each request in a {@link RequestLog} when it arrives, before S3Proxy serves it, and again
 * when it has been answered (for the in-flight count).
 */
final class RequestLogFilter implements Filter {

    /** Request attribute under which later filters find this request's {@link RequestRecord}. */
    static final String RECORD_ATTRIBUTE = RequestRecord.class.getName();

    private final RequestLog log;

    RequestLogFilter(RequestLog log) {
        this.log = log;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long startNanos = System.nanoTime();
        HttpServletRequest http = (HttpServletRequest) request;
        RequestTarget target = RequestTarget.parse(http.getRequestURI(), http.getQueryString());
        String method = http.getMethod();
        RequestKind kind = RequestKind.classify(
                method, target.bucket(), target.key(), target.queryNames(), http.getHeader("x-amz-copy-source") != null);
        RequestRecord record = new RequestRecord(kind, method, target.bucket(), target.key(), startNanos, headers(http));
        log.started(record);
        request.setAttribute(RECORD_ATTRIBUTE, record);
        try {
            chain.doFilter(request, response);
        } finally {
            log.finished(record);
        }
    }

    private static Map<String, List<String>> headers(HttpServletRequest http) {
        Map<String, List<String>> headers = new HashMap<>();
        for (String name : Collections.list(http.getHeaderNames())) {
            headers.computeIfAbsent(name.toLowerCase(Locale.ROOT), n -> new ArrayList<>())
                    .addAll(Collections.list(http.getHeaders(name)));
        }
        headers.replaceAll((name, values) -> List.copyOf(values));
        return headers;
    }
}
