package dev.flinks3.transfer;

import java.util.Objects;

/**
 * What S3 says about one object: its key, length in bytes, ETag and last-modified time (ms since
 * the epoch). Immutable.
 */
public final class ObjectMetadata {

    private final String key;
    private final long length;
    private final String eTag;
    private final long lastModifiedMillis;

    /**
     * @param key the object key
     * @param length length in bytes, {@code >= 0}
     * @param eTag the ETag as the server sent it (may be {@code null} in listings of some servers)
     * @param lastModifiedMillis last-modified time in ms since the epoch, 0 if unknown
     */
    public ObjectMetadata(String key, long length, String eTag, long lastModifiedMillis) {
        this.key = Objects.requireNonNull(key, "key");
        this.length = length;
        this.eTag = eTag;
        this.lastModifiedMillis = lastModifiedMillis;
    }

    public String key() {
        return key;
    }

    /** Length in bytes. */
    public long length() {
        return length;
    }

    /** The ETag, or {@code null} if the server did not send one. */
    public String eTag() {
        return eTag;
    }

    /** Last-modified time in ms since the epoch, 0 if unknown. */
    public long lastModifiedMillis() {
        return lastModifiedMillis;
    }

    @Override
    public String toString() {
        return "ObjectMetadata{key=" + key + ", length=" + length + ", eTag=" + eTag + "}";
    }
}
