package dev.flinks3.testserver;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import org.gaul.shaded.org.eclipse.jetty.ee10.servlet.ServletContextRequest;

/**
 * Injects the random faults of a {@link FaultProfile} into signed S3 requests (an
 * {@code Authorization} header or a presigned query): 500 InternalError and 503 SlowDown, which S3
 * documents as retryable, or a connection closed before any answer, which clients see as a network
 * error. Unsigned requests (the request-count endpoint, health checks) are always served.
 * Thread-safe.
 */
final class RandomFaultFilter implements Filter {

    private final RandomFaults faults;

    RandomFaultFilter(RandomFaults faults) {
        this.faults = faults;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        RandomFaults.Fault fault = signed(http) ? faults.next() : RandomFaults.Fault.NONE;
        if (fault == RandomFaults.Fault.NONE) {
            chain.doFilter(request, response);
            return;
        }
        // Read the body first, as FaultInjectionFilter does: the client then sees exactly the chosen fault.
        request.getInputStream().transferTo(OutputStream.nullOutputStream());
        switch (fault) {
            case INTERNAL_ERROR ->
                S3ErrorAnswer.send(
                        (HttpServletResponse) response,
                        500,
                        "InternalError",
                        "Random fault injected by the test server");
            case SLOW_DOWN ->
                S3ErrorAnswer.send(
                        (HttpServletResponse) response, 503, "SlowDown", "Random fault injected by the test server");
            default ->
                ServletContextRequest.getServletContextRequest(request)
                        .getConnectionMetaData()
                        .getConnection()
                        .getEndPoint()
                        .close();
        }
    }

    private static boolean signed(HttpServletRequest request) {
        // The query string, not getParameter: that would read a form-encoded body before S3Proxy does.
        String query = request.getQueryString();
        return request.getHeader("Authorization") != null
                || query != null && (query.contains("X-Amz-Signature=") || query.contains("Signature="));
    }
}
