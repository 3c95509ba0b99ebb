package dev.flinks3.testserver;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;

/**
 * Applies a {@link NetworkProfile} to each request: the profile's latency once per authenticated
 * request before S3Proxy serves it, and the request and response bodies paced to the profile's rate.
 *
 * <p>This sits in front of S3Proxy's servlet, so the delay is paid once per S3 request however many
 * blob-store calls S3Proxy makes to serve it. Only signed requests are delayed, as the latency
 * models the round trip of an S3 API call.
 */
final class NetworkEmulationFilter implements Filter {

    private final long latencyNanos;
    private final long bytesPerSecond;

    NetworkEmulationFilter(NetworkProfile profile) {
        this.latencyNanos = profile.latency().toNanos();
        this.bytesPerSecond = profile.bytesPerSecond();
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long arrivalNanos = System.nanoTime();
        HttpServletRequest http = (HttpServletRequest) request;
        if (latencyNanos > 0 && isSigned(http)) {
            Deadlines.sleepUntil(arrivalNanos + latencyNanos);
        }
        if (bytesPerSecond > 0) {
            chain.doFilter(
                    new PacedRequest(http, bytesPerSecond),
                    new PacedResponse((HttpServletResponse) response, bytesPerSecond));
        } else {
            chain.doFilter(request, response);
        }
    }

    private static boolean isSigned(HttpServletRequest http) {
        return http.getHeader("Authorization") != null
                || RequestTarget.parse(http.getRequestURI(), http.getQueryString())
                        .hasQuerySignature();
    }

    private static final class PacedRequest extends HttpServletRequestWrapper {
        private final long bytesPerSecond;
        private ServletInputStream body;

        PacedRequest(HttpServletRequest request, long bytesPerSecond) {
            super(request);
            this.bytesPerSecond = bytesPerSecond;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (body == null) {
                body = new PacedServletInputStream(super.getInputStream(), new BodyPacer(bytesPerSecond));
            }
            return body;
        }
    }

    private static final class PacedResponse extends HttpServletResponseWrapper {
        private final long bytesPerSecond;
        private ServletOutputStream body;

        PacedResponse(HttpServletResponse response, long bytesPerSecond) {
            super(response);
            this.bytesPerSecond = bytesPerSecond;
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (body == null) {
                body = new PacedServletOutputStream(super.getOutputStream(), new BodyPacer(bytesPerSecond));
            }
            return body;
        }
    }
}
