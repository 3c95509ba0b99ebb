package dev.flinks3.testserver;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * Checks the trailing CRC32C of {@code aws-chunked} upload bodies, as S3 does, before S3Proxy sees
 * them: a mismatch is answered {@code 400 BadDigest} and nothing is stored. S3Proxy 4.1.0 verifies
 * checksums sent as request headers, but its filesystem backend reads an aws-chunked body only up to
 * the decoded length and never reaches the trailer, so a body corrupted in flight would be stored.
 *
 * <p>Only requests that announce {@code x-amz-trailer: x-amz-checksum-crc32c} (the AWS SDK's default
 * for uploads with CRC32C checksums) are read in full here, then replayed to S3Proxy unchanged.
 */
final class TrailingChecksumFilter implements Filter {

    private static final String CRC32C_TRAILER = "x-amz-checksum-crc32c";

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        String trailer = http.getHeader("x-amz-trailer");
        if (trailer == null || !CRC32C_TRAILER.equals(trailer.trim().toLowerCase(Locale.ROOT))) {
            chain.doFilter(request, response);
            return;
        }
        byte[] raw = http.getInputStream().readAllBytes();
        CRC32C crc = new CRC32C();
        AwsChunkedBody body;
        try {
            body = AwsChunkedBody.decode(raw, crc);
        } catch (IOException malformed) {
            S3ErrorAnswer.send((HttpServletResponse) response, 400, "IncompleteBody", malformed.getMessage());
            return;
        }
        String expected = body.trailer(CRC32C_TRAILER);
        String actual = Base64.getEncoder()
                .encodeToString(
                        ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
        if (!actual.equals(expected)) {
            S3ErrorAnswer.send(
                    (HttpServletResponse) response,
                    400,
                    "BadDigest",
                    "The CRC32C you specified did not match the calculated checksum.");
            return;
        }
        chain.doFilter(new Replayed(http, raw), response);
    }

    /** The request with its already-read body to read once more. */
    private static final class Replayed extends HttpServletRequestWrapper {
        private final ByteArrayInputStream body;

        Replayed(HttpServletRequest request, byte[] raw) {
            super(request);
            this.body = new ByteArrayInputStream(raw);
        }

        @Override
        public ServletInputStream getInputStream() {
            return new ServletInputStream() {
                @Override
                public int read() {
                    return body.read();
                }

                @Override
                public int read(byte[] buffer, int offset, int length) {
                    return body.read(buffer, offset, length);
                }

                @Override
                public boolean isFinished() {
                    return body.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new IllegalStateException("the replayed body is read blocking");
                }
            };
        }
    }
}
