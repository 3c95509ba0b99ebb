package dev.flinks3.testserver;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Gives the answers to CreateMultipartUpload and CompleteMultipartUpload (small XML documents) a
 * {@code Content-Length}. S3Proxy writes them without one; when Jetty also decides to close the connection after
 * such an answer (seen for requests of the CRT's HTTP client), the body ends only where the connection ends.
 * HTTP/1.1 allows that (RFC 9112, section 6.3, rule 8), but aws-c-http reads such a body as empty, so the
 * CRT-based S3 client found no upload id. S3 itself sends a length or chunks. Other answers keep S3Proxy's
 * framing: the fault tests of DeleteObjects and listings are written against it.
 *
 * <p>Installed innermost, next to S3Proxy: the outer filters (pacing, faults, the request log's byte count) see
 * the buffered body written once, with its length, when S3Proxy is done.
 */
final class SelfDelimitedResponseFilter implements Filter {

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        RequestRecord record = (RequestRecord) request.getAttribute(RequestLogFilter.RECORD_ATTRIBUTE);
        if (record == null
                || (record.kind() != RequestKind.CREATE_MULTIPART_UPLOAD
                        && record.kind() != RequestKind.COMPLETE_MULTIPART_UPLOAD)) {
            chain.doFilter(request, response);
            return;
        }
        BufferedResponse buffered = new BufferedResponse((HttpServletResponse) response);
        chain.doFilter(request, buffered);
        buffered.writeWithLength();
    }

    /** Holds the body S3Proxy writes until it is done; lengths S3Proxy sets are replaced by the real one. */
    private static final class BufferedResponse extends BufferedServletResponse {

        BufferedResponse(HttpServletResponse response) {
            super(response);
        }

        @Override
        protected Charset writerCharset() {
            String encoding = getCharacterEncoding();
            return encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
        }

        @Override
        public void resetBuffer() {
            super.resetBuffer();
            body.reset();
        }

        @Override
        public void reset() {
            super.reset();
            body.reset();
        }

        void writeWithLength() throws IOException {
            byte[] bytes = bufferedBody();
            HttpServletResponse response = (HttpServletResponse) getResponse();
            if (!response.isCommitted()) {
                response.setContentLengthLong(bytes.length);
            }
            if (bytes.length > 0) {
                response.getOutputStream().write(bytes);
            }
        }
    }
}
