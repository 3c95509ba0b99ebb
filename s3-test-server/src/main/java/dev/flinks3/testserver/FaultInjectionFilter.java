package dev.flinks3.testserver;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Answers chosen requests with an S3 error document instead of serving them, so tests can fail
 * a real HTTP exchange (for example one UploadPart with 403 AccessDenied, which clients do not retry).
 * Thread-safe.
 */
final class FaultInjectionFilter implements Filter {

    private final Map<RequestKind, Fault> faults = new ConcurrentHashMap<>();

    void failNext(RequestKind kind, int times, int httpStatus, String errorCode) {
        faults.put(kind, new Fault(new AtomicInteger(times), httpStatus, errorCode));
    }

    void clear() {
        faults.clear();
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        RequestRecord record = (RequestRecord) request.getAttribute(RequestLogFilter.RECORD_ATTRIBUTE);
        Fault fault = record == null ? null : faults.get(record.kind());
        if (fault != null && fault.remaining().getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            // Read the body first: answering before it is consumed makes Jetty close the connection
            // while the client still sends, and clients retry that as a network error.
            request.getInputStream().transferTo(OutputStream.nullOutputStream());
            fault.answer((HttpServletResponse) response, record);
        } else {
            chain.doFilter(request, response);
        }
    }

    private record Fault(AtomicInteger remaining, int httpStatus, String errorCode) {
        void answer(HttpServletResponse response, RequestRecord record) throws IOException {
            S3ErrorAnswer.send(
                    response, httpStatus, errorCode, "Fault injected by the test server for " + record.kind());
        }
    }
}
