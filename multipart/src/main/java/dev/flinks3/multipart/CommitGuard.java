package dev.flinks3.multipart;

import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.ObjectMetadata;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.WriteCondition;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;

/**
 * What happens around the one request that makes an object visible (PutObject or
 * CompleteMultipartUpload): the no-overwrite precondition and the check after a failed response.
 *
 * <p>No overwrite uses S3 conditional writes ({@code If-None-Match: *}, 412 when the key exists). For
 * servers without them (settings {@code conditionalWritesEnabled = false}) it falls back to a HEAD just
 * before the commit, which leaves a small race window. After a failed commit request, a HEAD tells
 * whether the request took effect and only the response was lost (connection drop, or a retry answered
 * NoSuchUpload or 412 because the first attempt had already succeeded): the object then carries
 * exactly the ETag the writer computed. An identical object that was already at the key is
 * indistinguishable from ours and counts as written. Thread-safe.
 */
final class CommitGuard {

    private final ObjectClient client;
    private final boolean conditionalWrites;

    CommitGuard(ObjectClient client, boolean conditionalWrites) {
        this.client = client;
        this.conditionalWrites = conditionalWrites;
    }

    /**
     * The condition to send with the commit request.
     *
     * @throws FileAlreadyExistsException if no overwrite is asked, the server lacks conditional writes
     *     and an object exists at {@code target}
     */
    WriteCondition prepare(S3Location target, WriteCondition requested) throws IOException {
        if (requested != WriteCondition.IF_NONE_MATCH || conditionalWrites) {
            return requested;
        }
        try {
            client.head(target);
        } catch (FileNotFoundException absent) {
            return WriteCondition.NONE;
        }
        throw new FileAlreadyExistsException(target.toString(), null, "an object exists at the key");
    }

    /**
     * After a commit request to {@code target} failed with {@code failure}: true if the object there has
     * exactly {@code expectedETag}, i.e. our request took effect. Errors of the check itself are added to
     * {@code failure} as suppressed. Does not retry.
     *
     * @param expectedETag the ETag our request would give the object; {@code null} if unknown (then false)
     */
    boolean tookEffect(S3Location target, String expectedETag, Throwable failure) {
        if (expectedETag == null) {
            return false;
        }
        try {
            ObjectMetadata metadata = client.head(target);
            return ETags.same(metadata.eTag(), expectedETag);
        } catch (FileNotFoundException absent) {
            return false;
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
            return false;
        }
    }
}
