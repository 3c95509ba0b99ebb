package dev.flinks3.fs;

import dev.flinks3.transfer.ListPage;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.ObjectMetadata;
import dev.flinks3.transfer.S3Location;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Deletes objects in DeleteObjects batches of at most {@value #BATCH_KEYS} keys (S3's limit per
 * request), collecting the keys S3 reports as not deleted.
 *
 * <p>A batch is one request however many keys it holds, so deleting a directory of n objects costs
 * n / 1,000 listing pages plus n / 1,000 DeleteObjects requests. Keys that could not be deleted do not
 * stop the others; they are reported together, by name, at the end. Not thread-safe.
 */
final class PrefixDelete {

    /** S3 accepts at most 1,000 keys per DeleteObjects request. */
    static final int BATCH_KEYS = 1000;
    /** Keys named in the message of a failed delete; the count covers the rest. */
    private static final int NAMED_FAILURES = 10;

    private final ObjectClient client;
    private final String bucket;
    private final String scheme;
    private final List<String> failures = new ArrayList<>();
    private long deleted;

    PrefixDelete(ObjectClient client, S3Location anyInBucket) {
        this.client = client;
        this.bucket = anyInBucket.bucket();
        this.scheme = anyInBucket.scheme();
    }

    /**
     * Deletes every object whose key starts with {@code prefix}, page by page.
     *
     * @return the number of objects deleted
     * @throws IOException naming the keys that could not be deleted, or the first failed request
     */
    long deleteAllUnder(String prefix) throws IOException {
        ObjectListing listing = new ObjectListing(client, bucket, prefix, null);
        for (ListPage page = listing.next(); page != null; page = listing.next()) {
            List<String> keys = new ArrayList<>(page.objects().size());
            for (ObjectMetadata object : page.objects()) {
                // The object client drops entries outside the prefix; this delete never relies on it alone.
                if (object.key().startsWith(prefix)) {
                    keys.add(object.key());
                }
            }
            deleteBatches(keys);
        }
        throwIfAnyFailed(prefix);
        return deleted;
    }

    /**
     * Deletes exactly the given keys.
     *
     * @throws IOException naming the keys that could not be deleted, or the first failed request
     */
    void deleteKeys(List<String> keys, String what) throws IOException {
        deleteBatches(keys);
        throwIfAnyFailed(what);
    }

    private void deleteBatches(List<String> keys) throws IOException {
        for (int from = 0; from < keys.size(); from += BATCH_KEYS) {
            List<String> batch = keys.subList(from, Math.min(keys.size(), from + BATCH_KEYS));
            List<String> notDeleted = client.deleteBatch(bucket, batch);
            failures.addAll(notDeleted);
            deleted += batch.size() - notDeleted.size();
        }
    }

    private void throwIfAnyFailed(String what) throws IOException {
        if (failures.isEmpty()) {
            return;
        }
        StringBuilder message = new StringBuilder("Could not delete ")
                .append(failures.size())
                .append(failures.size() == 1 ? " object" : " objects")
                .append(" under ")
                .append(scheme)
                .append("://")
                .append(bucket)
                .append('/')
                .append(what)
                .append(" (DeleteObjects answered HTTP 200 with an S3 error code per key): ");
        for (int i = 0; i < Math.min(NAMED_FAILURES, failures.size()); i++) {
            message.append(i == 0 ? "" : ", ")
                    .append(scheme)
                    .append("://")
                    .append(bucket)
                    .append('/')
                    .append(failures.get(i));
        }
        if (failures.size() > NAMED_FAILURES) {
            message.append(" and ").append(failures.size() - NAMED_FAILURES).append(" more");
        }
        throw new IOException(message.toString());
    }
}
