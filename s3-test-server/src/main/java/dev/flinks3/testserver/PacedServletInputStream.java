package dev.flinks3.testserver;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.IOException;

/** A request body that hands its bytes to the servlet no faster than a {@link BytePacer} allows. */
final class PacedServletInputStream extends ServletInputStream {

    private final ServletInputStream body;
    private final BytePacer pacer;

    PacedServletInputStream(ServletInputStream body, BytePacer pacer) {
        this.body = body;
        this.pacer = pacer;
    }

    @Override
    public int read() throws IOException {
        pacer.begin();
        int b = body.read();
        if (b >= 0) {
            pacer.pace(1);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        pacer.begin();
        int n = body.read(buffer, offset, length);
        if (n > 0) {
            pacer.pace(n);
        }
        return n;
    }

    @Override
    public int available() throws IOException {
        return body.available();
    }

    @Override
    public boolean isFinished() {
        return body.isFinished();
    }

    @Override
    public boolean isReady() {
        return body.isReady();
    }

    @Override
    public void setReadListener(ReadListener readListener) {
        body.setReadListener(readListener);
    }

    @Override
    public void close() throws IOException {
        body.close();
    }
}
