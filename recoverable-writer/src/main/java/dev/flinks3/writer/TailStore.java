package dev.flinks3.writer;

import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.ListPage;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.ObjectMetadata;
import dev.flinks3.transfer.RangeStream;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.WriteCondition;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes, reads and deletes tail objects (see {@link TailObjects}) through the object client. Every
 * method blocks until S3 answered and retries only as the client does. Thread-safe.
 *
 * <p>Deleting tails is clean-up after the data is safe: a failed delete (a DeleteObjects or
 * DeleteObject refused, a listing that fails) never fails the recovery, commit or clean-up call that
 * asked for it. The tails are left for later: a commit deletes every tail of its target, and tails stay
 * hidden from listings. The first such failure of a store is logged as a warning, later ones at DEBUG,
 * so a server that refuses every delete does not flood the log.
 */
final class TailStore {

    private static final Logger LOG = LoggerFactory.getLogger(TailStore.class);
    private static final int DELETE_BATCH = 1000;

    private final ObjectClient client;
    private final AtomicBoolean cleanupFailureLogged = new AtomicBoolean();

    TailStore(ObjectClient client) {
        this.client = client;
    }

    /** Stores {@code tail} (position to limit) as a new tail object and returns its location. */
    S3Location write(S3Location target, String streamId, long position, ByteBuffer tail) throws IOException {
        S3Location location = TailObjects.newTail(target, streamId, position);
        Futures.await(client.put(location, tail, WriteCondition.NONE), "PutObject", location);
        return location;
    }

    /**
     * Reads a whole tail object.
     *
     * @throws FileNotFoundException if it is gone (cleaned up, or invalidated by recovering an older state)
     * @throws IOException if its length is not {@code expectedBytes}
     */
    byte[] read(S3Location tail, long expectedBytes) throws IOException {
        byte[] bytes;
        try (RangeStream body = client.get(tail, 0, expectedBytes + 1)) {
            bytes = body.readAllBytes();
        }
        if (bytes.length != expectedBytes) {
            throw new IOException("Tail object " + tail + " has " + bytes.length + " bytes, the recoverable recorded "
                    + expectedBytes);
        }
        return bytes;
    }

    /**
     * Deletes one tail object; a missing one counts as deleted.
     *
     * @return false if the delete failed (logged, left for the commit's clean-up)
     */
    boolean delete(S3Location tail) {
        try {
            client.delete(tail);
            return true;
        } catch (IOException e) {
            leftForLater("Could not delete tail object " + tail, e);
            return false;
        }
    }

    /**
     * Deletes the tails the stream persisted after {@code position} bytes: states newer than the one
     * being recovered, which the recovered stream is about to overwrite. Tails that cannot be deleted
     * are logged and left; their resumables stay formally readable but their parts will be replaced.
     */
    void deleteLaterTails(S3Location target, String streamId, long position) {
        String prefix = TailObjects.streamPrefix(target, streamId);
        deleteUnder(target, prefix, key -> TailObjects.positionOf(key, prefix) > position, "of later persists of");
    }

    /**
     * Deletes every tail object of every stream to {@code target}: once the target is committed no
     * resumable of it can be recovered any more, so none of them is needed. This also removes the
     * tails Flink never asks to clean up: the one a recovered stream resumed from, and those of
     * persists taken after the checkpoint a job restored from. Tails that cannot be deleted are logged
     * and left.
     */
    void deleteAllTails(S3Location target) {
        deleteUnder(target, TailObjects.targetPrefix(target), key -> TailObjects.isTailOf(key, target), "of committed");
    }

    private void deleteUnder(S3Location target, String prefix, Predicate<String> selected, String what) {
        try {
            List<String> failed = listAndDelete(target, prefix, selected);
            if (!failed.isEmpty()) {
                leftForLater("Could not delete tail objects " + what + " " + target + ": " + failed, null);
            }
        } catch (IOException e) {
            leftForLater("Could not delete the tail objects " + what + " " + target, e);
        }
    }

    /** Logs a clean-up failure: the first of this store as a warning, later ones at DEBUG. */
    private void leftForLater(String what, IOException cause) {
        String message = what + "; the data is safe, the tails stay hidden from listings and are deleted when"
                + " the target is committed";
        if (cleanupFailureLogged.compareAndSet(false, true)) {
            LOG.warn("{} (further clean-up failures of this writer are logged at DEBUG)", message, cause);
        } else {
            LOG.debug("{}", message, cause);
        }
    }

    /**
     * One flat listing of {@code prefix}, then DeleteObjects of the keys {@code selected} accepts.
     *
     * @return the keys S3 refused to delete, with its reasons
     */
    private List<String> listAndDelete(S3Location target, String prefix, Predicate<String> selected)
            throws IOException {
        List<String> keys = new ArrayList<>();
        String token = null;
        do {
            ListPage page = client.list(target.bucket(), prefix, null, token, DELETE_BATCH);
            for (ObjectMetadata object : page.objects()) {
                if (selected.test(object.key())) {
                    keys.add(object.key());
                }
            }
            token = page.nextContinuationToken();
        } while (token != null);
        List<String> failed = new ArrayList<>();
        for (int from = 0; from < keys.size(); from += DELETE_BATCH) {
            List<String> batch = keys.subList(from, Math.min(keys.size(), from + DELETE_BATCH));
            failed.addAll(client.deleteBatch(target.bucket(), batch));
        }
        return failed;
    }
}
