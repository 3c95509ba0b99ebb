package dev.flinks3.testserver;

import jakarta.servlet.ServletOutputStream;
import java.io.IOException;

/** A response body that reaches the connection no faster than a {@link BytePacer} allows. */
final class PacedServletOutputStream extends ForwardingServletOutputStream {

    private final BytePacer pacer;

    PacedServletOutputStream(ServletOutputStream body, BytePacer pacer) {
        super(body);
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
}
