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
import java.util.function.Supplier;

/**
 * Applies a {@link NetworkProfile} to each request: the profile's latency once per authenticated
 * request before S3Proxy serves it, and the request and response bodies paced to the profile's rate per
 * body and, with a shared limit, to one rate per direction that all bodies of the server share.
 *
 * <p>This sits in front of S3Proxy's servlet, so the delay is paid once per S3 request however many
 * blob-store calls S3Proxy makes to serve it. Only signed requests are delayed, as the latency
 * models the round trip of an S3 API call.
 */
final class NetworkEmulationFilter implements Filter {

    private final long latencyNanos;
    private final long bytesPerSecond;
    /** All request bodies together, and all response bodies together; null without a shared limit. */
    private final SharedBandwidthPacer sharedUpload;

    private final SharedBandwidthPacer sharedDownload;

    NetworkEmulationFilter(NetworkProfile profile) {
        this.latencyNanos = profile.latency().toNanos();
        this.bytesPerSecond = profile.bytesPerSecond();
        long shared = profile.sharedBytesPerSecond();
        this.sharedUpload = shared > 0 ? new SharedBandwidthPacer(shared) : null;
        this.sharedDownload = shared > 0 ? new SharedBandwidthPacer(shared) : null;
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
                    new PacedRequest(http, () -> new BodyPacer(bytesPerSecond)),
                    new PacedResponse((HttpServletResponse) response, () -> new BodyPacer(bytesPerSecond)));
        } else if (sharedDownload != null) {
            chain.doFilter(
                    new PacedRequest(http, () -> sharedUpload),
                    new PacedResponse((HttpServletResponse) response, () -> sharedDownload));
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
        private final Supplier<BytePacer> pacer;
        private ServletInputStream body;

        PacedRequest(HttpServletRequest request, Supplier<BytePacer> pacer) {
            super(request);
            this.pacer = pacer;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (body == null) {
                body = new PacedServletInputStream(super.getInputStream(), pacer.get());
            }
            return body;
        }
    }

    private static final class PacedResponse extends HttpServletResponseWrapper {
        private final Supplier<BytePacer> pacer;
        private ServletOutputStream body;

        PacedResponse(HttpServletResponse response, Supplier<BytePacer> pacer) {
            super(response);
            this.pacer = pacer;
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (body == null) {
                body = new PacedServletOutputStream(super.getOutputStream(), pacer.get());
            }
            return body;
        }
    }
}
