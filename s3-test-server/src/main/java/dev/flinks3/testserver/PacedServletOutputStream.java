package dev.flinks3.testserver;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.IOException;

/** A response body that reaches the connection no faster than a {@link BodyPacer} allows. */
final class PacedServletOutputStream extends ServletOutputStream {

    private final ServletOutputStream body;
    private final BodyPacer pacer;

    PacedServletOutputStream(ServletOutputStream body, BodyPacer pacer) {
        this.body = body;
        this.pacer = pacer;
    }

    @Override
    public void write(int b) throws IOException {
        pacer.pace(1);
        body.write(b);
    }

    @Override
    public void write(byte[] buffer, int offset, int length) throws IOException {
        if (length > 0) {
            pacer.pace(length);
        }
        body.write(buffer, offset, length);
    }

    @Override
    public void flush() throws IOException {
        body.flush();
    }

    @Override
    public void close() throws IOException {
        body.close();
    }

    @Override
    public boolean isReady() {
        return body.isReady();
    }

    @Override
    public void setWriteListener(WriteListener writeListener) {
        body.setWriteListener(writeListener);
    }
}
