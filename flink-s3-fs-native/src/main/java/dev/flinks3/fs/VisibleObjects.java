package dev.flinks3.fs;

import dev.flinks3.transfer.ListPage;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.ObjectMetadata;
import dev.flinks3.writer.TailObjects;
import java.io.IOException;

/**
 * Which objects the filesystem shows: every object except the tail objects the recoverable writer
 * keeps beside in-progress files ({@link TailObjects}). A key prefix is a directory only if it holds
 * at least one visible object, so a directory that holds nothing but tails does not exist. Thread-safe.
 */
final class VisibleObjects {

    /** Keys of the first page of an existence check: enough when no tails are in the way. */
    private static final int FIRST_PAGE_KEYS = 16;

    private final ObjectClient client;

    VisibleObjects(ObjectClient client) {
        this.client = client;
    }

    /** True unless the key's last segment names a tail object. A directory marker ({@code dir/}) is visible. */
    static boolean isVisible(String key) {
        return !TailObjects.isTailObjectName(key.substring(key.lastIndexOf('/') + 1));
    }

    /**
     * True if a visible object other than {@code ignoredKey} has a key starting with {@code prefix}.
     * Lists every key under the prefix and stops at the first visible one: one ListObjectsV2 request
     * unless tails come first (they sort early, their names start with a dot), then pages of 1,000 keys.
     *
     * @param ignoredKey a key not to count, e.g. the directory's own marker; {@code null} for none
     */
    boolean anyUnder(String bucket, String prefix, String ignoredKey) throws IOException {
        String token = null;
        int pageKeys = FIRST_PAGE_KEYS;
        do {
            ListPage page = client.list(bucket, prefix, null, token, pageKeys);
            for (ObjectMetadata object : page.objects()) {
                if (isVisible(object.key()) && !object.key().equals(ignoredKey)) {
                    return true;
                }
            }
            token = page.nextContinuationToken();
            pageKeys = ObjectListing.PAGE_KEYS;
        } while (token != null);
        return false;
    }
}
