package dev.flinks3.it.faults;

import com.github.tomakehurst.wiremock.common.InputStreamSource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.CRC32C;

/** Ways the proxy damages bodies in flight. */
final class Corruption {

    private Corruption() {}

    /** A copy of {@code bytes} with the bits of the middle byte inverted; an empty body stays empty. */
    static byte[] flipMiddleByte(byte[] bytes) {
        byte[] copy = bytes.clone();
        if (copy.length > 0) {
            copy[copy.length / 2] ^= (byte) 0xff;
        }
        return copy;
    }

    /** The base64 big-endian CRC32C of {@code bytes}, as S3's {@code x-amz-checksum-crc32c} carries it. */
    static String crc32c(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return Base64.getEncoder()
                .encodeToString(
                        ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }

    /**
     * A body source that yields the first half of {@code bytes} and then fails: the proxy has sent the
     * status, the headers (with the full Content-Length) and half the body when the connection breaks.
     */
    static InputStreamSource breakingHalfway(byte[] bytes) {
        int half = bytes.length / 2;
        return () -> new InputStream() {
            private final InputStream first = new ByteArrayInputStream(bytes, 0, half);

            @Override
            public int read() throws IOException {
                int b = first.read();
                if (b < 0) {
                    throw new IOException("connection broken by the fault-injecting proxy after " + half + " bytes");
                }
                return b;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                int n = first.read(buffer, offset, length);
                if (n < 0) {
                    throw new IOException("connection broken by the fault-injecting proxy after " + half + " bytes");
                }
                return n;
            }
        };
    }
}
