package dev.flinks3.testserver;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.IOException;

/**
 * A response body that hands everything to another stream; a subclass sees each write on the way
 * (to pace it, to count it) and forwards it to {@link #body}.
 */
abstract class ForwardingServletOutputStream extends ServletOutputStream {

    /** The stream every write ends in. */
    protected final ServletOutputStream body;

    ForwardingServletOutputStream(ServletOutputStream body) {
        this.body = body;
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
