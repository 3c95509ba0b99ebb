package dev.flinks3.fs;

import org.apache.flink.core.fs.BlockLocation;

/**
 * The one "block" of a range of an object: S3 has no hosts that hold data, so input formats see a
 * single block on {@code localhost} and schedule without locality. Immutable.
 */
final class S3BlockLocation implements BlockLocation {

    private static final String[] HOSTS = {"localhost"};

    private final long offset;
    private final long length;

    S3BlockLocation(long offset, long length) {
        this.offset = offset;
        this.length = length;
    }

    @Override
    public String[] getHosts() {
        return HOSTS.clone();
    }

    @Override
    public long getOffset() {
        return offset;
    }

    @Override
    public long getLength() {
        return length;
    }

    @Override
    public int compareTo(BlockLocation other) {
        return Long.compare(offset, other.getOffset());
    }
}
