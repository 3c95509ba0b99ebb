package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.RangeStream;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.aws.S3Errors;
import java.io.IOException;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * The body of one ranged GET as the SDK's blocking input stream delivers it. Failures while reading
 * (a reset connection, a checksum mismatch, a timeout) surface as {@link IOException}s naming the
 * location, also when the HTTP layer throws an unchecked exception of its own (the CRT client's
 * {@code HttpException} is not an {@code SdkException}). Not thread-safe, like any input stream.
 */
final class SdkRangeStream extends RangeStream {

    private final ResponseInputStream<GetObjectResponse> body;
    private final S3Location location;
    private final long objectLength;
    private final String eTag;
    private boolean aborted;

    /**
     * @param objectLength the whole object's length in bytes, -1 if unknown
     * @param eTag the object's ETag from the answer, {@code null} if it had none
     */
    SdkRangeStream(ResponseInputStream<GetObjectResponse> body, S3Location location, long objectLength, String eTag) {
        this.body = body;
        this.location = location;
        this.objectLength = objectLength;
        this.eTag = eTag;
    }

    /** The stream for a range that holds no bytes: the GET of an empty object. */
    static RangeStream empty() {
        return new RangeStream() {
            @Override
            public int read() {
                return -1;
            }

            @Override
            public void abort() {}

            @Override
            public long objectLength() {
                return 0;
            }
        };
    }

    /**
     * The whole object's length from {@code Content-Range: bytes a-b/total}, or the body length
     * when the server sent the whole object without a range; -1 if neither is known.
     */
    static long objectLength(GetObjectResponse response) {
        String range = response.contentRange();
        if (range != null) {
            int slash = range.lastIndexOf('/');
            if (slash >= 0 && slash + 1 < range.length() && range.charAt(slash + 1) != '*') {
                return Long.parseLong(range.substring(slash + 1).trim());
            }
            return -1;
        }
        Long length = response.contentLength();
        return length == null ? -1 : length;
    }

    @Override
    public int read() throws IOException {
        try {
            return body.read();
        } catch (RuntimeException e) {
            throw S3Errors.translate("GetObject", location, e);
        }
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        try {
            return body.read(buffer, offset, length);
        } catch (RuntimeException e) {
            throw S3Errors.translate("GetObject", location, e);
        }
    }

    @Override
    public long skip(long n) throws IOException {
        try {
            return body.skip(n);
        } catch (RuntimeException e) {
            throw S3Errors.translate("GetObject", location, e);
        }
    }

    @Override
    public int available() throws IOException {
        return body.available();
    }

    @Override
    public void abort() {
        if (!aborted) {
            aborted = true;
            body.abort();
        }
    }

    @Override
    public long objectLength() {
        return objectLength;
    }

    @Override
    public String eTag() {
        return eTag;
    }

    /** Releases the connection; reads nothing more from it. */
    @Override
    public void close() throws IOException {
        body.close();
    }
}
