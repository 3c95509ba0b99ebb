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
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Records each request in a {@link RequestLog} when it arrives, before S3Proxy serves it, and again
 * when it has been answered (for the in-flight count, the serve time and the bytes of the answer's
 * body). It is the outermost filter that touches the body, so the bytes it counts are all that a later
 * filter (an injected error's document) or S3Proxy wrote, as handed to the connection after any
 * pacing. An error page the container writes itself ({@code sendError}) is not counted.
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
                method,
                target.bucket(),
                target.key(),
                target.queryNames(),
                http.getHeader("x-amz-copy-source") != null);
        RequestRecord record =
                new RequestRecord(kind, method, target.bucket(), target.key(), startNanos, headers(http));
        log.started(record);
        request.setAttribute(RECORD_ATTRIBUTE, record);
        CountingResponse counting = new CountingResponse((HttpServletResponse) response);
        try {
            chain.doFilter(request, counting);
            counting.flushWriter();
        } finally {
            log.finished(record, counting.bytesSent());
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

    /** A response that counts the body bytes written through it, by stream or by writer. Used by one thread. */
    private static final class CountingResponse extends HttpServletResponseWrapper {
        private CountingOutputStream body;
        private PrintWriter writer;

        CountingResponse(HttpServletResponse response) {
            super(response);
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (writer != null) {
                throw new IllegalStateException("getWriter() was called before getOutputStream()");
            }
            return stream();
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            if (writer == null) {
                if (body != null) {
                    throw new IllegalStateException("getOutputStream() was called before getWriter()");
                }
                writer = new PrintWriter(new OutputStreamWriter(stream(), getCharacterEncoding()));
            }
            return writer;
        }

        @Override
        public void flushBuffer() throws IOException {
            flushWriter();
            super.flushBuffer();
        }

        /** Hands what the writer holds to the stream, where it is counted. */
        void flushWriter() {
            if (writer != null) {
                writer.flush();
            }
        }

        long bytesSent() {
            return body == null ? 0 : body.bytes;
        }

        private CountingOutputStream stream() throws IOException {
            if (body == null) {
                body = new CountingOutputStream(super.getOutputStream());
            }
            return body;
        }
    }

    /** Counts the bytes that reach the underlying stream (a failed write counts nothing). */
    private static final class CountingOutputStream extends ForwardingServletOutputStream {
        private long bytes;

        CountingOutputStream(ServletOutputStream body) {
            super(body);
        }

        @Override
        public void write(int b) throws IOException {
            body.write(b);
            bytes++;
        }

        @Override
        public void write(byte[] buffer, int offset, int length) throws IOException {
            body.write(buffer, offset, length);
            bytes += length;
        }
    }
}
