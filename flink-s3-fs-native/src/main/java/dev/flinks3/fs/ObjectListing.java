package dev.flinks3.fs;

import dev.flinks3.transfer.ListPage;
import dev.flinks3.transfer.ObjectClient;
import java.io.IOException;

/**
 * Pages through one ListObjectsV2 listing of a key prefix, holding only the page being read.
 *
 * <p>{@link #next()} fetches the next page with the previous page's continuation token, so a
 * directory of any size is visited in pages of at most {@value #PAGE_KEYS} keys. Not thread-safe.
 */
final class ObjectListing {

    /** S3 returns at most 1,000 keys per ListObjectsV2 page. */
    static final int PAGE_KEYS = 1000;

    private final ObjectClient client;
    private final String bucket;
    private final String prefix;
    private final String delimiter;
    private final int pageKeys;
    private String continuationToken;
    private boolean done;

    /**
     * @param delimiter {@code "/"} to list one directory level (sub-directories come back as common
     *     prefixes), {@code null} to list every key under the prefix
     */
    ObjectListing(ObjectClient client, String bucket, String prefix, String delimiter) {
        this(client, bucket, prefix, delimiter, PAGE_KEYS);
    }

    /** @param pageKeys keys per page, 1 to 1,000 */
    ObjectListing(ObjectClient client, String bucket, String prefix, String delimiter, int pageKeys) {
        this.client = client;
        this.bucket = bucket;
        this.prefix = prefix;
        this.delimiter = delimiter;
        this.pageKeys = pageKeys;
    }

    /** The next page, or {@code null} after the last one. */
    ListPage next() throws IOException {
        if (done) {
            return null;
        }
        ListPage page = client.list(bucket, prefix, delimiter, continuationToken, pageKeys);
        continuationToken = page.nextContinuationToken();
        done = page.isLast();
        return page;
    }
}
