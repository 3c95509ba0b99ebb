package dev.flinks3.transfer.read;

import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import java.io.Closeable;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads an object front to back from a position on: a streamed range that grows while the reader goes on, or a
 * parallel read-ahead on a slow connection, as the {@link ReadPolicy} decides. The input stream's own reads use one,
 * and each positional walk another ({@link PositionalReads}). A read may skip forward a little (up to {@link
 * ReadPolicy#MAX_FORWARD_SKIP_BYTES}: read through on the open connection); a read elsewhere closes the range and
 * starts a new one, small at first ({@link ReadPolicy.Start#AFTER_SEEK}).
 *
 * <p>Every GET carries {@code If-Match} with the stream's {@link ObjectVersion}, which also holds the object's
 * length once known. Not thread-safe: one reader at a time (the owner's lock or thread).
 */
final class SequentialReader implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(SequentialReader.class);

    private final ObjectClient client;
    private final S3Location location;
    private final ReadPolicy policy;
    private final ObjectVersion version;
    private final ReadAheadBudget budget;

    private RangeReader range;
    /** Bytes the open range gave to reads (skipped bytes not counted), to tell a sequential reader. */
    private long rangeBytesRead;
    /** Longest forward gap skipped on the open range, to tell a reader that skips a little from a random one. */
    private long rangeLongestSkip;
    /** Bytes the next range asks for when the reader goes on sequentially. */
    private long nextRangeBytes;
    /** How the next range comes to its start; {@link ReadPolicy.Start#AFTER_SEEK} resets the growth. */
    private ReadPolicy.Start nextStart;

    private ParallelReadAhead readAhead;
    /** Chunks {@link #readAhead} took from the budget, given back when it closes. */
    private int readAheadChunks;

    /**
     * @param start how the reader comes to its first position: its first range's size follows from it
     * @param budget where a parallel read-ahead takes its chunks; {@code null}: never in parallel
     */
    SequentialReader(
            ObjectClient client,
            S3Location location,
            ReadPolicy policy,
            ObjectVersion version,
            ReadAheadBudget budget,
            ReadPolicy.Start start) {
        this.client = client;
        this.location = location;
        this.policy = policy;
        this.version = version;
        this.budget = budget;
        this.nextStart = start;
    }

    /** True while a range or a read-ahead is open. */
    boolean isReading() {
        return range != null || readAhead != null;
    }

    /**
     * Notes that the reader moved: the next range starts small ({@link ReadPolicy.Start#AFTER_SEEK}) unless the move
     * is one a sequential reader makes (forward by at most {@link ReadPolicy#SEQUENTIAL_SKIP_BYTES} while reading).
     */
    void moved(long ahead) {
        if (ahead != 0 && (!isReading() || ahead < 0 || ahead > ReadPolicy.SEQUENTIAL_SKIP_BYTES)) {
            nextStart = ReadPolicy.Start.AFTER_SEEK;
        }
    }

    /**
     * Reads up to {@code len} bytes at {@code position}, blocking until at least one arrives.
     *
     * @return bytes read, or -1 at the object's end (or past it)
     * @throws java.io.FileNotFoundException if the object does not exist
     * @throws IOException if the object cannot be read after the range's retries
     */
    int read(long position, byte[] b, int off, int len) throws IOException {
        if (readAhead != null) {
            if (readAhead.covers(position)) {
                return readAhead.read(position, b, off, len);
            }
            closeReadAhead();
        }
        while (true) {
            if (range != null && !continuesAt(range, position)) {
                // Sequential: the reader went on where the range ended (or a little past it), having read
                // (not skipped) at least half of it or skipped only a little at a time; random reads that
                // merely cross a range's end do not qualify.
                boolean sequential = position >= range.end()
                        && position - range.position() <= ReadPolicy.SEQUENTIAL_SKIP_BYTES
                        && (rangeBytesRead >= (range.end() - range.start()) / 2
                                || rangeLongestSkip <= ReadPolicy.SEQUENTIAL_SKIP_BYTES);
                long rangeLength = range.end() - range.start();
                boolean fast = policy.isFast(rangeLength, range.bodyWaitNanos());
                closeRange();
                if (!sequential) {
                    nextStart = ReadPolicy.Start.AFTER_SEEK;
                } else {
                    nextRangeBytes = policy.nextRange(rangeLength, fast);
                    if (policy.startsParallelReadAhead(rangeLength, fast) && startReadAhead(position)) {
                        return readAhead.read(position, b, off, len);
                    }
                }
            }
            if (range == null) {
                openRange(position, len);
            }
            long gap = position - range.position();
            rangeLongestSkip = Math.max(rangeLongestSkip, gap);
            if (gap > 0 && range.discard(gap) < gap) {
                closeRange();
                return -1;
            }
            int n = range.read(b, off, len);
            if (n >= 0) {
                rangeBytesRead += n;
                return n;
            }
            long length = version.length();
            if ((length >= 0 && position >= length) || range.position() < range.end()) {
                closeRange();
                return -1;
            }
            // The range is used up at its end and the object goes on: the next turn sees a sequential reader.
        }
    }

    /** Bytes of read-ahead buffer this reader holds now. */
    long readAheadBufferedBytes() {
        return readAhead == null ? 0 : readAhead.bufferedBytes();
    }

    /**
     * Releases the connection (drains a remainder of a few KiB, aborts a larger one), cancels the read-ahead GETs in
     * flight and gives back their buffers. The reader may be used again: it starts a new range. Never fails.
     */
    @Override
    public void close() {
        closeRange();
        closeReadAhead();
    }

    private void openRange(long position, int len) {
        if (nextStart != null) {
            nextRangeBytes = policy.firstRange(nextStart, len);
            nextStart = null;
        }
        range = new RangeReader(client, location, position, endOf(position, nextRangeBytes), version.length(), version);
        if (LOG.isDebugEnabled()) {
            LOG.debug("Ranged GET of bytes {} to {} of {}", position, range.end(), location);
        }
        rangeBytesRead = 0;
        rangeLongestSkip = 0;
    }

    /**
     * Starts parallel read-ahead at {@code position} if this reader may (a budget, the length known, bytes left, and
     * at least two chunks free in the budget; a window of as many chunks as the budget grants, up to the
     * parallelism).
     */
    private boolean startReadAhead(long position) {
        long length = version.length();
        if (budget == null || length < 0 || position >= length) {
            return false;
        }
        int chunks = budget.tryAcquire(policy.parallelism(), policy.chunkBytes());
        if (chunks == 0) {
            return false;
        }
        readAheadChunks = chunks;
        readAhead = new ParallelReadAhead(client, location, position, length, policy.chunkBytes(), chunks, version);
        return true;
    }

    /** True if {@code wanted} can be served by the open range: it lies ahead and close enough to skip to. */
    private static boolean continuesAt(RangeReader open, long wanted) {
        long gap = wanted - open.position();
        return gap >= 0 && gap <= ReadPolicy.MAX_FORWARD_SKIP_BYTES && wanted < open.end() && !open.isExhausted();
    }

    private void closeReadAhead() {
        if (readAhead != null) {
            readAhead.close();
            readAhead = null;
            budget.release(readAheadChunks, policy.chunkBytes());
            readAheadChunks = 0;
        }
    }

    private void closeRange() {
        if (range != null) {
            range.close();
            range = null;
        }
    }

    /** {@code start + bytes}, saturated so a position near {@link Long#MAX_VALUE} cannot overflow. */
    private static long endOf(long start, long bytes) {
        return start > Long.MAX_VALUE - bytes ? Long.MAX_VALUE : start + bytes;
    }
}
