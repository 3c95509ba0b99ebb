package dev.flinks3.transfer;

import java.util.List;

/**
 * One page of a ListObjectsV2 answer: the objects, the common prefixes (each ending with the
 * delimiter) and the continuation token for the next page ({@code null} on the last page). Immutable.
 */
public final class ListPage {

    private final List<ObjectMetadata> objects;
    private final List<String> commonPrefixes;
    private final String nextContinuationToken;

    public ListPage(List<ObjectMetadata> objects, List<String> commonPrefixes, String nextContinuationToken) {
        this.objects = List.copyOf(objects);
        this.commonPrefixes = List.copyOf(commonPrefixes);
        this.nextContinuationToken = nextContinuationToken;
    }

    public List<ObjectMetadata> objects() {
        return objects;
    }

    public List<String> commonPrefixes() {
        return commonPrefixes;
    }

    /** Token for the next page, or {@code null} when this is the last page. */
    public String nextContinuationToken() {
        return nextContinuationToken;
    }

    public boolean isLast() {
        return nextContinuationToken == null;
    }
}
