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

/**
 * The {@link RequestLog#summary()} for a server running in another JVM (a benchmark's):
 * {@code GET /__flinks3/requests} answers it as {@code text/plain} in the form of
 * {@link RequestSummary#render()} (lines {@code <Operation> <requests> <serveNanos> <bytesSent>}, then
 * {@code Total <requests>}), which {@link RequestSummary#parse} reads; {@code DELETE} on the same
 * path resets the log. The path cannot clash with S3: bucket names start with
 * a letter or digit. These requests are neither logged, delayed nor paced.
 */
final class RequestCountsEndpoint implements Filter {

    static final String PATH = EmbeddedS3Server.REQUEST_SUMMARY_PATH;

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
            case "GET" -> write(out, log.summary().render());
            case "DELETE" -> {
                log.clear();
                out.setStatus(HttpServletResponse.SC_NO_CONTENT);
            }
            default -> out.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
        }
    }

    private static void write(HttpServletResponse response, String text) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        response.setContentType("text/plain; charset=utf-8");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
