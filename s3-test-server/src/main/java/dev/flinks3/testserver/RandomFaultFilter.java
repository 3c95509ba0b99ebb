package dev.flinks3.testserver;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.OutputStream;
import org.gaul.shaded.org.eclipse.jetty.ee10.servlet.ServletContextRequest;

/**
 * Injects the random faults of a {@link FaultProfile} into signed S3 requests (an
 * {@code Authorization} header or a presigned query): 500 InternalError and 503 SlowDown, which S3
 * documents as retryable, or a connection closed before any answer, which clients see as a network
 * error. Unsigned requests (the request-count endpoint, health checks) are always served.
 * If the profile asks for them, also connections closed half-way through a body (a request's body, such as an
 * UploadPart's, before it is served; or a GET's answer once half of its Content-Length is sent) and answers held
 * back before the request is served (a client whose attempt timeout is shorter gives up and retries, and the
 * first attempt is still served). Thread-safe.
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
        if (fault == RandomFaults.Fault.SLOW_ANSWER) {
            holdBack(faults.profile().slowAnswerMillis());
            chain.doFilter(request, response);
            return;
        }
        if (fault == RandomFaults.Fault.MID_BODY_RESET) {
            cutMidBody(http, (HttpServletResponse) response, chain);
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

    private static void holdBack(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Closes the connection half-way through the request's body (unserved), or through a GET's answer; a
     * request with neither body is served as it is.
     */
    private void cutMidBody(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long requestBody = request.getContentLengthLong();
        if (requestBody > 1) {
            byte[] buffer = new byte[8192];
            long toRead = requestBody / 2;
            var in = request.getInputStream();
            while (toRead > 0) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, toRead));
                if (n < 0) {
                    break;
                }
                toRead -= n;
            }
            faults.countMidBodyReset();
            closeConnection(request);
            return;
        }
        if (!"GET".equals(request.getMethod())) {
            chain.doFilter(request, response);
            return;
        }
        chain.doFilter(request, new MidBodyCut(response, request));
    }

    private static void closeConnection(ServletRequest request) {
        ServletContextRequest.getServletContextRequest(request)
                .getConnectionMetaData()
                .getConnection()
                .getEndPoint()
                .close();
    }

    /** An answer whose connection is closed once half of its Content-Length is written. */
    private final class MidBodyCut extends HttpServletResponseWrapper {

        private final ServletRequest request;
        private ServletOutputStream cut;

        MidBodyCut(HttpServletResponse response, ServletRequest request) {
            super(response);
            this.request = request;
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (cut == null) {
                cut = new ForwardingServletOutputStream(super.getOutputStream()) {
                    private long written;
                    private boolean closed;

                    @Override
                    public void write(int b) throws IOException {
                        write(new byte[] {(byte) b}, 0, 1);
                    }

                    @Override
                    public void write(byte[] bytes, int offset, int length) throws IOException {
                        if (closed) {
                            throw new IOException("connection closed mid-body by an injected fault");
                        }
                        String declared = getHeader("Content-Length");
                        long half = declared == null ? Long.MAX_VALUE : Long.parseLong(declared.trim()) / 2;
                        if (half > 0 && written + length >= half) {
                            int before = (int) Math.max(0, half - written);
                            body.write(bytes, offset, before);
                            body.flush();
                            closed = true;
                            faults.countMidBodyReset();
                            closeConnection(request);
                            throw new IOException("connection closed mid-body by an injected fault");
                        }
                        body.write(bytes, offset, length);
                        written += length;
                    }
                };
            }
            return cut;
        }
    }

    private static boolean signed(HttpServletRequest request) {
        // The query string, not getParameter: that would read a form-encoded body before S3Proxy does.
        String query = request.getQueryString();
        return request.getHeader("Authorization") != null
                || query != null && (query.contains("X-Amz-Signature=") || query.contains("Signature="));
    }
}
