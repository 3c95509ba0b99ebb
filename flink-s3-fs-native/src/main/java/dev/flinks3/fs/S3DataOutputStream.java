package dev.flinks3.fs;

import dev.flinks3.transfer.UploadStream;
import java.io.IOException;
import org.apache.flink.core.fs.FSDataOutputStream;

/**
 * Flink's view of an {@link UploadStream} (our engine's multipart upload stream, or, with {@code
 * s3.client: crt}, the Transfer Manager's): parts upload in the background while the caller writes, and the object appears at its key, whole, only when {@link #close()} succeeds.
 *
 * <p>{@link #flush()} and {@link #sync()} do nothing: S3 has no partial objects, so nothing written
 * becomes durable before {@code close()}. Flink's checkpoint streams rely only on {@code close()}.
 */
final class S3DataOutputStream extends FSDataOutputStream {

    private final UploadStream out;

    S3DataOutputStream(UploadStream out) {
        this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
    }

    /** Bytes written so far. */
    @Override
    public long getPos() {
        return out.getPos();
    }

    @Override
    public void flush() {}

    @Override
    public void sync() {}

    /**
     * Commits the object (one PutObject, or the last part and CompleteMultipartUpload). On failure the
     * multipart upload is aborted and the first cause is thrown. Idempotent.
     *
     * @throws java.nio.file.FileAlreadyExistsException if created with {@code NO_OVERWRITE} and an
     *     object appeared at the key meanwhile
     */
    @Override
    public void close() throws IOException {
        out.close();
    }

    @Override
    public String toString() {
        return "S3DataOutputStream{" + out + "}";
    }
}
