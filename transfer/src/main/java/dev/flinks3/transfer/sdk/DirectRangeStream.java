package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.RangeStream;
import dev.flinks3.transfer.S3Location;
import java.io.IOException;

/**
 * The body of a {@link DirectRangedGet#open} GET, read from the blocking HTTP client's socket on the reader's
 * thread; its bytes are counted as downloaded as they are read. A body that ends before its
 * {@code Content-Length} fails the read with the HTTP client's {@link IOException}. Not thread-safe, like any
 * input stream.
 */
final class DirectRangeStream extends RangeStream {

    private final DirectRangedGet.Answer answer;
    private final S3Location location;
    private final S3RequestMetrics metrics;

    DirectRangeStream(DirectRangedGet.Answer answer, S3Location location, S3RequestMetrics metrics) {
        this.answer = answer;
        this.location = location;
        this.metrics = metrics;
    }

    @Override
    public int read() throws IOException {
        int b = answer.body.read();
        if (b >= 0) {
            metrics.bodyBytesReceived(1);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = answer.body.read(buffer, offset, length);
        if (n > 0) {
            metrics.bodyBytesReceived(n);
        }
        return n;
    }

    @Override
    public int available() throws IOException {
        return answer.body.available();
    }

    /** Returns the connection to the pool once the body was read to its end; drops it otherwise. */
    @Override
    public void close() throws IOException {
        answer.body.close();
    }

    @Override
    public void abort() {
        answer.body.abort();
    }

    @Override
    public long objectLength() {
        return answer.objectLength;
    }

    @Override
    public String eTag() {
        return answer.eTag;
    }

    @Override
    public String toString() {
        return "DirectRangeStream{" + location + ", " + answer.bodyBytes + " bytes}";
    }
}
