package dev.flinks3.transfer.bulk;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.ReadSettings;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.SlidingWindow;
import dev.flinks3.transfer.WriteCondition;
import dev.flinks3.transfer.read.S3SeekableInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies many objects inside the store: what Flink's {@code PathsCopyingFileSystem} asks for when a ForSt
 * checkpoint or savepoint duplicates its SST files from the working directory into the checkpoint. Each object is
 * one server-side copy ({@link ObjectClient#copy}: CopyObject, or UploadPartCopy in parallel parts for a large
 * one), at most {@code copiesInFlight} at once, the next starting as soon as any one finishes. No byte passes
 * through this process.
 *
 * <p><b>Stores that do not copy.</b> Some appliances answer CopyObject with 501 Not Implemented (or 405). The first
 * such answer is logged once as a warning, and from then on every object is copied by streaming it through this
 * process instead: ranged GETs of the source (one version, {@code If-Match}) into one buffer of {@code partBytes},
 * uploaded as one PutObject or as the parts of a multipart upload that is aborted if the copy fails. Such copies run
 * one after the other, so they hold one buffer at a time.
 *
 * <p><b>Failures.</b> The first failure stops new copies, cancels those in flight (a cancelled multipart copy is
 * aborted) and is thrown once all have ended, later ones suppressed. Objects already copied stay, as Flink's
 * contract for {@code copyFiles} allows; no incomplete object or upload is left. An interrupt of the calling
 * thread cancels the copy the same way and throws an {@link InterruptedIOException}.
 *
 * <p>Thread-safe: each {@link #copy} call is independent; the switch to streamed copies is shared.
 */
public final class ObjectCopies {

    private static final Logger LOG = LoggerFactory.getLogger(ObjectCopies.class);

    /** Answers of a store that has no server-side copy: 501 Not Implemented, 405 Method Not Allowed. */
    private static final Set<Integer> REFUSED_STATUS = Set.of(501, 405);

    private static final Set<String> REFUSED_CODES = Set.of("NotImplemented", "MethodNotAllowed");

    private final ObjectClient client;
    private final int copiesInFlight;
    private final int partBytes;
    private final ReadSettings readSettings;
    private volatile boolean streamed;

    /**
     * @param client the client to copy with; not owned
     * @param copiesInFlight most server-side copies of one call in flight at once, at least 1
     * @param partBytes bytes of the one buffer a streamed copy holds, and of each part it uploads (5 MiB..2 GiB)
     * @param readSettings how a streamed copy reads the source
     */
    public ObjectCopies(ObjectClient client, int copiesInFlight, long partBytes, ReadSettings readSettings) {
        if (copiesInFlight < 1) {
            throw new IllegalArgumentException("copies in flight (" + copiesInFlight + ") must be at least 1");
        }
        if (partBytes < 5L * 1024 * 1024 || partBytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("part size " + partBytes + " bytes is outside 5 MiB..2 GiB");
        }
        this.client = Objects.requireNonNull(client, "client");
        this.copiesInFlight = copiesInFlight;
        this.partBytes = (int) partBytes;
        this.readSettings = Objects.requireNonNull(readSettings, "readSettings");
    }

    /**
     * Copies every object to its target, replacing what is there, and blocks until all are done.
     *
     * @throws java.io.FileNotFoundException if a source does not exist (the message names it)
     * @throws IOException the first failure, naming its location, later ones suppressed; {@link
     *     InterruptedIOException} if the calling thread is interrupted
     */
    public void copy(List<ObjectCopy> copies) throws IOException {
        List<ObjectCopy> left = copies;
        if (!streamed) {
            List<ObjectCopy> refused = new ArrayList<>();
            SlidingWindow.run(copies, copiesInFlight, copy -> copyInStore(copy, refused));
            left = refused;
        }
        for (ObjectCopy copy : left) {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("interrupted while copying " + copy);
            }
            new StreamedCopy(copy).run();
        }
    }

    /** True until the store refused a server-side copy; from then on objects are streamed through this process. */
    public boolean copiesInStore() {
        return !streamed;
    }

    /** One server-side copy; a refused one is added to {@code refused} for a streamed copy and counts as done. */
    private CompletableFuture<Void> copyInStore(ObjectCopy copy, List<ObjectCopy> refused) {
        CompletableFuture<Void> sent = client.copy(copy.source(), copy.target(), copy.length());
        CompletableFuture<Void> result = new CompletableFuture<>();
        sent.whenComplete((done, failure) -> {
            if (failure == null) {
                result.complete(null);
                return;
            }
            Throwable cause = Futures.unwrap(failure);
            if (!isRefusal(cause)) {
                result.completeExceptionally(cause);
                return;
            }
            if (!streamed) {
                streamed = true;
                LOG.warn(
                        "The S3 store does not copy objects on its side ({}): objects that Flink copies within the"
                                + " store (ForSt checkpoints and savepoints) are streamed through this process from"
                                + " now on",
                        cause.getMessage());
            }
            synchronized (refused) {
                refused.add(copy);
            }
            result.complete(null);
        });
        result.whenComplete((done, failure) -> {
            if (result.isCancelled()) {
                sent.cancel(true);
            }
        });
        return result;
    }

    /** Whether {@code failure} is a store's answer that it has no server-side copy. */
    static boolean isRefusal(Throwable failure) {
        if (!(failure instanceof S3RequestException)) {
            return false;
        }
        S3RequestException answer = (S3RequestException) failure;
        return REFUSED_STATUS.contains(answer.statusCode()) || REFUSED_CODES.contains(answer.errorCode());
    }

    /** One object streamed from its source to its target through one buffer, on the calling thread. */
    private final class StreamedCopy {
        private final ObjectCopy copy;

        StreamedCopy(ObjectCopy copy) {
            this.copy = copy;
        }

        void run() throws IOException {
            try (S3SeekableInputStream in =
                    new S3SeekableInputStream(client, copy.source(), readSettings, copy.length(), null)) {
                long length = in.length();
                int firstBytes = (int) Math.min(length, partBytes);
                byte[] buffer = new byte[firstBytes];
                readFully(in, buffer, firstBytes);
                if (length <= partBytes) {
                    Futures.await(
                            client.put(copy.target(), ByteBuffer.wrap(buffer, 0, firstBytes), WriteCondition.NONE),
                            "PutObject",
                            copy.target());
                    return;
                }
                multipart(in, length, buffer);
            }
        }

        private void multipart(S3SeekableInputStream in, long length, byte[] buffer) throws IOException {
            S3Location target = copy.target();
            String uploadId = Futures.await(client.createMultipartUpload(target), "CreateMultipartUpload", target);
            try {
                List<CompletedPart> parts = new ArrayList<>();
                long done = 0;
                int bytes = buffer.length;
                while (true) {
                    parts.add(Futures.await(
                            client.uploadPart(target, uploadId, parts.size() + 1, ByteBuffer.wrap(buffer, 0, bytes)),
                            "UploadPart",
                            target));
                    done += bytes;
                    if (done >= length) {
                        break;
                    }
                    bytes = (int) Math.min(length - done, buffer.length);
                    readFully(in, buffer, bytes);
                }
                Futures.await(
                        client.completeMultipartUpload(target, uploadId, parts, WriteCondition.NONE),
                        "CompleteMultipartUpload",
                        target);
            } catch (IOException | RuntimeException e) {
                Throwable abortFailure = Futures.quietly(client.abortMultipartUpload(target, uploadId));
                if (abortFailure != null) {
                    e.addSuppressed(abortFailure);
                }
                throw e;
            }
        }

        private void readFully(S3SeekableInputStream in, byte[] buffer, int bytes) throws IOException {
            int done = 0;
            while (done < bytes) {
                int n = in.read(buffer, done, bytes - done);
                if (n < 0) {
                    throw new EOFException(copy.source() + " ended after " + (in.getPos()) + " bytes while it was"
                            + " copied; it changed during the copy");
                }
                done += n;
            }
        }
    }

    /** One object and where its copy goes. Immutable. */
    public static final class ObjectCopy {
        private final S3Location source;
        private final S3Location target;
        private final long length;

        private ObjectCopy(S3Location source, S3Location target, long length) {
            this.source = Objects.requireNonNull(source, "source");
            this.target = Objects.requireNonNull(target, "target");
            if (length < -1) {
                throw new IllegalArgumentException("length " + length + " of " + source + " must be >= -1");
            }
            this.length = length;
        }

        /**
         * @param length the source's length in bytes if the caller knows it, else -1 (a HEAD then tells it where
         *     it is needed)
         */
        public static ObjectCopy of(S3Location source, S3Location target, long length) {
            return new ObjectCopy(source, target, length);
        }

        /** The object copied. */
        public S3Location source() {
            return source;
        }

        /** Where the copy goes; an object there is replaced. */
        public S3Location target() {
            return target;
        }

        /** The source's length in bytes, -1 if not known. */
        public long length() {
            return length;
        }

        @Override
        public String toString() {
            return source + " -> " + target;
        }
    }
}
