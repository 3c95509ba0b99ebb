package dev.flinks3.testserver;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;

/**
 * A response whose body S3Proxy writes into memory instead of the connection, for a filter to send (as it is,
 * with its length, or rewritten) once S3Proxy is done. Lengths S3Proxy sets and its flushes do not reach the
 * connection; the filter sets the real length when it writes the body.
 */
abstract class BufferedServletResponse extends HttpServletResponseWrapper {

    /** The bytes S3Proxy wrote so far. */
    protected final ByteArrayOutputStream body = new ByteArrayOutputStream();

    private ServletOutputStream stream;
    private PrintWriter writer;

    BufferedServletResponse(HttpServletResponse response) {
        super(response);
    }

    /** The charset of {@link #getWriter()}. */
    protected abstract Charset writerCharset();

    /** Everything written, the writer's buffer included. */
    byte[] bufferedBody() {
        if (writer != null) {
            writer.flush();
        }
        return body.toByteArray();
    }

    @Override
    public ServletOutputStream getOutputStream() {
        if (stream == null) {
            stream = new ServletOutputStream() {
                @Override
                public void write(int b) {
                    body.write(b);
                }

                @Override
                public void write(byte[] bytes, int offset, int length) {
                    body.write(bytes, offset, length);
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setWriteListener(WriteListener listener) {
                    throw new UnsupportedOperationException("S3Proxy writes its answers blocking");
                }
            };
        }
        return stream;
    }

    @Override
    public PrintWriter getWriter() {
        if (writer == null) {
            writer = new PrintWriter(new OutputStreamWriter(body, writerCharset()));
        }
        return writer;
    }

    @Override
    public void setContentLength(int length) {
        // The real length is set when the body is written.
    }

    @Override
    public void setContentLengthLong(long length) {
        // The real length is set when the body is written.
    }

    @Override
    public void flushBuffer() {
        // Nothing reaches the connection before S3Proxy is done: committing now would fix the headers without a
        // length.
    }
}
