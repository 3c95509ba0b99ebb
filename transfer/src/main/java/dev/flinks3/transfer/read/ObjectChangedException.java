package dev.flinks3.transfer.read;

import java.io.IOException;

/**
 * The object a stream reads was replaced after the stream's first GET: a later GET of the stream,
 * sent with {@code If-Match} and the ETag of that first answer, was answered 412 Precondition Failed,
 * or an answer carried another ETag or length. No byte of the other version was handed out; the reader
 * must open the file again to read the new version (as Hadoop S3A's change detection asks, its
 * {@code RemoteFileChangedException}).
 */
public final class ObjectChangedException extends IOException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message names the {@code s3://} location and what changed
     * @param cause the server's 412 answer, or {@code null} where the client saw the change itself
     */
    public ObjectChangedException(String message, Throwable cause) {
        super(message, cause);
    }
}
