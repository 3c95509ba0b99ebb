package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.RangeStream;
import dev.flinks3.transfer.S3Location;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * The body of a GET that came with the object's checksum, read in full at the first read, before
 * any byte is handed out. The SDK checks a body against its checksum only when the body ends, and
 * readers stop after the bytes they asked for, so a body corrupted in flight would otherwise be handed
 * out unchecked; read in full, a mismatch fails the first read before any byte is used, and the reader
 * asks again from the same position. Only small bodies qualify: servers return the checksum of a
 * whole object (S3 never does for part of one), and the read path asks for at most one read-ahead
 * window. Not thread-safe, like any input stream.
 */
final class VerifiedRangeStream extends RangeStream {

    /** Largest body read in full to check it; larger ones stream unchecked. */
    static final long MAX_VERIFIED_BYTES = 64L * 1024 * 1024;

    private final RangeStream body;
    private final S3Location location;
    private ByteArrayInputStream checked;

    private VerifiedRangeStream(RangeStream body, S3Location location) {
        this.body = body;
        this.location = location;
    }

    /**
     * {@code body} as it should be read: checked in full first if the answer carries a whole-object
     * checksum the SDK will check and is small enough to hold, as it streams otherwise.
     */
    static RangeStream of(RangeStream body, GetObjectResponse response, S3Location location) {
        Long length = response.contentLength();
        boolean checkable = length != null
                && length <= MAX_VERIFIED_BYTES
                && (isFullObject(response.checksumCRC32C())
                        || isFullObject(response.checksumCRC32())
                        || isFullObject(response.checksumCRC64NVME())
                        || isFullObject(response.checksumSHA1())
                        || isFullObject(response.checksumSHA256()));
        return checkable ? new VerifiedRangeStream(body, location) : body;
    }

    /** A checksum of parts ({@code <base64>-<parts>}) describes no byte range the SDK can check. */
    private static boolean isFullObject(String checksum) {
        return checksum != null && checksum.indexOf('-') < 0;
    }

    /**
     * Reads the body to its end, which makes the SDK compare it with its checksum, once.
     *
     * @throws IOException naming the location if the body does not match its checksum or breaks
     */
    private ByteArrayInputStream checked() throws IOException {
        if (checked == null) {
            try (RangeStream reading = body) {
                checked = new ByteArrayInputStream(reading.readAllBytes());
            } catch (IOException e) {
                throw new IOException(
                        "GetObject of " + location + " returned a body that does not match its"
                                + " checksum or broke before its end; none of its bytes were used",
                        e);
            }
        }
        return checked;
    }

    @Override
    public int read() throws IOException {
        return checked().read();
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        return checked().read(buffer, offset, length);
    }

    @Override
    public int available() {
        return checked == null ? 0 : checked.available();
    }

    /** Drops the connection if the body was not read yet. */
    @Override
    public void abort() {
        if (checked == null) {
            body.abort();
        }
    }

    @Override
    public long objectLength() {
        return body.objectLength();
    }

    @Override
    public String eTag() {
        return body.eTag();
    }

    @Override
    public void close() throws IOException {
        if (checked == null) {
            body.close();
        }
    }
}
