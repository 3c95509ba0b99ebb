package dev.flinks3.transfer;

import java.io.OutputStream;

/**
 * An output stream that writes one object: the bytes upload while the caller writes (one PutObject or a
 * multipart upload) and the object appears at its key, whole, only when {@link #close()} succeeds; a
 * failed or interrupted stream leaves no object and no multipart upload behind. Opened by {@link
 * UploadStreams}. Not thread-safe for writes, like any {@link OutputStream}.
 */
public abstract class UploadStream extends OutputStream {

    /** Bytes written so far, in bytes (Flink's {@code FSDataOutputStream#getPos()}). */
    public abstract long getPos();
}
