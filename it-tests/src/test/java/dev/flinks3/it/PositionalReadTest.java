package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.RequestKind;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.flink.core.fs.ByteBufferReadable;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * Positional reads ({@link ByteBufferReadable#read(long, ByteBuffer)}) issue their own ranged GET
 * and do not move the stream (issue 2, read path; what ForSt's disaggregated state needs).
 */
class PositionalReadTest extends AbstractS3ProxyFileSystemTest {

    private static final int SIZE = 3 * MIB + 17;
    private static final int AT = 2 * MIB;

    @Test
    void positionalReadReturnsTheBytesAtThePositionAndLeavesTheStreamWhereItWas() throws Exception {
        Path path = new Path(dir, "state.sst");
        byte[] data = randomBytes(SIZE, 11);
        write(path, data);

        try (FSDataInputStream in = fs.open(path)) {
            assertThat(in).isInstanceOf(ByteBufferReadable.class);
            byte[] head = in.readNBytes(1000);
            assertThat(head).isEqualTo(Arrays.copyOf(data, 1000));

            ByteBuffer buffer = ByteBuffer.allocate(4096);
            readFully((ByteBufferReadable) in, AT, buffer);

            assertThat(buffer.array()).isEqualTo(Arrays.copyOfRange(data, AT, AT + 4096));
            assertThat(in.getPos()).isEqualTo(1000);
            assertThat(in.readNBytes(100)).isEqualTo(Arrays.copyOfRange(data, 1000, 1100));
        }
        assertThat(server.requestLog().entries(RequestKind.GET_OBJECT))
                .filteredOn(r -> r.key().equals(key(path)))
                .anySatisfy(get -> assertThat(get.header("Range"))
                        .hasValueSatisfying(range -> assertThat(range).startsWith("bytes=" + AT + "-")));
    }

    @Test
    void positionalReadIntoADirectBufferStopsAtTheEndOfTheObject() throws Exception {
        Path path = new Path(dir, "tail");
        byte[] data = randomBytes(SIZE, 12);
        write(path, data);

        try (FSDataInputStream in = fs.open(path)) {
            ByteBufferReadable positional = (ByteBufferReadable) in;
            ByteBuffer buffer = ByteBuffer.allocateDirect(100);
            long at = SIZE - 10;
            int n;
            while ((n = positional.read(at, buffer)) > 0) {
                at += n;
            }

            assertThat(at).as("position where -1 was returned").isEqualTo(SIZE);
            buffer.flip();
            byte[] tail = new byte[buffer.remaining()];
            buffer.get(tail);
            assertThat(tail).isEqualTo(Arrays.copyOfRange(data, SIZE - 10, SIZE));
            assertThat(in.getPos()).isZero();
        }
    }

    /** Positional reads may return fewer bytes than asked for; callers loop as they would on a stream. */
    private static void readFully(ByteBufferReadable in, long position, ByteBuffer buffer) throws Exception {
        long at = position;
        while (buffer.hasRemaining()) {
            int n = in.read(at, buffer);
            assertThat(n).as("bytes read at %d", at).isPositive();
            at += n;
        }
    }
}
