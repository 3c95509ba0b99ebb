package dev.flinks3.fs;

import dev.flinks3.transfer.read.S3SeekableInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.flink.core.fs.ByteBufferReadable;
import org.apache.flink.core.fs.FSDataInputStream;

/**
 * Flink's view of an {@link S3SeekableInputStream}: lazy open and seek, ranged GETs with read-ahead,
 * and {@link ByteBufferReadable} positional reads that send their own ranged GET and leave the stream's
 * position alone (what disaggregated state, ForSt, reads with).
 *
 * <p>Sequential methods are for one thread at a time; positional reads may run concurrently.
 */
final class S3DataInputStream extends FSDataInputStream implements ByteBufferReadable {

    private final S3SeekableInputStream in;

    S3DataInputStream(S3SeekableInputStream in) {
        this.in = in;
    }

    /** Moves the read position; sends nothing until the next read. */
    @Override
    public void seek(long desired) throws IOException {
        in.seek(desired);
    }

    @Override
    public long getPos() {
        return in.getPos();
    }

    @Override
    public int read() throws IOException {
        return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        return in.read(b, off, len);
    }

    /** Reads at the stream's position into {@code buffer}, advancing both. */
    @Override
    public int read(ByteBuffer buffer) throws IOException {
        return in.read(buffer);
    }

    /** Reads at {@code position} into {@code buffer} with one ranged GET; does not move the stream. */
    @Override
    public int read(long position, ByteBuffer buffer) throws IOException {
        return in.read(position, buffer);
    }

    @Override
    public long skip(long n) throws IOException {
        return in.skip(n);
    }

    @Override
    public int available() throws IOException {
        return in.available();
    }

    /** Releases the connection quickly (a large remainder is aborted, not drained). */
    @Override
    public void close() {
        in.close();
    }

    @Override
    public String toString() {
        return "S3DataInputStream{" + in.location() + ", position=" + in.getPos() + "}";
    }
}
