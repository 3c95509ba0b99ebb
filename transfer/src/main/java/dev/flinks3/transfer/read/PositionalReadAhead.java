package dev.flinks3.transfer.read;

import dev.flinks3.transfer.RangeRead;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Read-ahead for positional reads that walk through an object: a reader (RocksDB or ForSt iterating an
 * SST file, block after block) whose reads each start where the one before ended gets its next bytes
 * from one larger ranged GET instead of a GET per read.
 *
 * <p>A positional read <em>continues</em> the one before if it starts at that read's end or at most
 * {@value #CONTINUING_GAP_BYTES} bytes after it. From the {@value #READS_BEFORE_READ_AHEAD}th read in a
 * row that continues, the read that needs bytes from the server asks for a <em>block</em>: {@value
 * #FIRST_BLOCK_BYTES} bytes at first (or the read's length, if larger), {@value #BLOCK_GROWTH}x the one
 * before for each block that follows in the same walk, up to the largest block the stream was given
 * (at most {@value #MAX_BLOCK_BYTES} bytes). Reads within the block are copied from it; the block is
 * dropped when a read uses its last byte, when a read lands outside it without continuing (the walk
 * ended; sizes start again at {@value #FIRST_BLOCK_BYTES}), and at {@link #close()}. Reads that do not
 * continue (a point lookup, ForSt's random state misses) send one GET of exactly their bytes, as
 * before: a random reader never pays for bytes it did not ask for.
 *
 * <p>A block is one heap array taken from the process-wide {@link ReadAheadBudget} (the bound of every
 * sequential read-ahead window, too); if the budget has no room, the read goes to the server as it is.
 * So a stream holds at most one block, and all streams together no more than the budget.
 *
 * <p>Thread-safe: positional reads may come from several threads at once. The state is guarded by
 * this object; GETs are sent outside the lock, so concurrent readers do not wait for each other's
 * requests. Two threads walking the same stream at once each see the other's reads as not continuing
 * and fall back to one GET per read, which is correct, only slower.
 */
final class PositionalReadAhead {

    /**
     * Bytes of the first block of a walk, at least: eight blocks of RocksDB's default 4 KiB (or four of
     * 16 KiB), about 1 ms at 50 MB/s on one S3 connection.
     */
    static final int FIRST_BLOCK_BYTES = 64 * 1024;

    /** Factor by which each block of one walk is larger than the one before, up to the largest. */
    static final int BLOCK_GROWTH = 4;

    /**
     * Largest block, whatever the stream's read-ahead size: with RocksDB's blocks of 4 to 16 KiB, 1 MiB
     * answers 64 to 256 reads, so requests drop to a few per MiB; a larger block would mostly hold bytes
     * a walk that stops early never reads.
     */
    static final int MAX_BLOCK_BYTES = 1024 * 1024;

    /**
     * Reads in a row that continue before a block is asked for: the second continuing read (the third
     * of the walk), as two adjacent point lookups are a coincidence and three are a walk. RocksDB's own
     * read-ahead for iterators also starts after two sequential reads.
     */
    static final int READS_BEFORE_READ_AHEAD = 2;

    /** Longest gap between one read's end and the next one's start that still continues the walk. */
    static final int CONTINUING_GAP_BYTES = 4 * 1024;

    /** Sends one ranged GET of {@code dst.remaining()} bytes at {@code position} into {@code dst}. */
    interface Fetch {
        /**
         * @return what was copied; fewer bytes where the object ends first
         * @throws IOException as the stream's GETs fail
         */
        RangeRead read(long position, ByteBuffer dst) throws IOException;
    }

    /** A block: {@code length} bytes of the object from {@code start}, in {@code bytes}. */
    private static final class Block {
        final long start;
        final byte[] bytes;
        final int length;

        Block(long start, byte[] bytes, int length) {
            this.start = start;
            this.bytes = bytes;
            this.length = length;
        }

        long end() {
            return start + length;
        }

        boolean holds(long position) {
            return position >= start && position < end();
        }
    }

    private final ReadAheadBudget budget;
    private final int maxBlockBytes;

    private Block block;
    /** End of the last positional read as asked for (its position plus its length); -1 before the first. */
    private long lastEnd = -1;
    /** Reads in a row that continued the one before. */
    private int continuing;
    /** Bytes the next block of this walk asks for. */
    private int nextBlockBytes = FIRST_BLOCK_BYTES;

    private boolean closed;
    /** The object's length in bytes as the last answer gave it, -1 before one did. */
    private long answeredLength = -1;

    /**
     * @param budget where blocks take their bytes from; {@code null}: never read ahead
     * @param readAheadBytes the stream's read-ahead size in bytes; blocks are at most this large (and at
     *     most {@value #MAX_BLOCK_BYTES})
     */
    PositionalReadAhead(ReadAheadBudget budget, long readAheadBytes) {
        this.budget = budget;
        this.maxBlockBytes = (int) Math.max(1, Math.min(MAX_BLOCK_BYTES, readAheadBytes));
    }

    /**
     * Reads {@code dst.remaining()} bytes at {@code position} into {@code dst} (not moved): from the
     * block where it holds them, else with {@code fetch}, asking for a block when the read continues a walk.
     *
     * @param objectLength the object's length in bytes if known, else -1 (blocks then stop where the
     *     object ends, as the GET does)
     * @return bytes copied: {@code dst.remaining()}, or fewer where the object ends; 0 at the end
     * @throws IOException as {@code fetch} fails; nothing is kept of a failed block
     */
    int read(long position, ByteBuffer dst, long objectLength, Fetch fetch) throws IOException {
        int wanted = dst.remaining();
        ByteBuffer into = dst.duplicate();
        int copied;
        long next;
        int blockBytes;
        synchronized (this) {
            boolean continues = lastEnd >= 0 && position >= lastEnd && position - lastEnd <= CONTINUING_GAP_BYTES;
            continuing = continues ? continuing + 1 : 0;
            copied = copyFromBlock(position, into);
            next = position + copied;
            lastEnd = position + wanted;
            long length = objectLength >= 0 ? objectLength : answeredLength;
            if (copied == wanted || (copied > 0 && length >= 0 && next >= length)) {
                return copied;
            }
            if (copied == 0 && !continues) {
                dropBlock();
                nextBlockBytes = FIRST_BLOCK_BYTES;
            }
            blockBytes =
                    copied > 0 || continuing >= READS_BEFORE_READ_AHEAD ? blockBytes(wanted - copied, next, length) : 0;
        }
        if (blockBytes == 0) {
            return copied + fetchDirect(next, into, fetch);
        }
        return copied + fetchBlock(next, into, blockBytes, fetch);
    }

    /** Drops the block and gives its bytes back to the budget; later reads still work, without a block. */
    synchronized void close() {
        closed = true;
        dropBlock();
    }

    /** Bytes of the block this stream holds now, 0 without one. */
    synchronized int heldBytes() {
        return block == null ? 0 : block.bytes.length;
    }

    /**
     * The size of the block to ask for at {@code position} for a read of {@code remaining} bytes, taken
     * from the budget; 0 if no block (no budget, closed, or no room). Grows the size for the next one.
     */
    private int blockBytes(int remaining, long position, long objectLength) {
        if (budget == null || closed) {
            return 0;
        }
        long size = Math.max(remaining, nextBlockBytes);
        if (objectLength >= 0) {
            size = Math.min(size, objectLength - position);
        }
        if (size <= remaining || size > Integer.MAX_VALUE) {
            // Nothing to read ahead (the object ends within the read), or a read too large for one array.
            return 0;
        }
        if (!budget.tryAcquireBuffer((int) size)) {
            return 0;
        }
        nextBlockBytes = (int) Math.min(maxBlockBytes, (long) nextBlockBytes * BLOCK_GROWTH);
        return (int) size;
    }

    private int fetchDirect(long position, ByteBuffer into, Fetch fetch) throws IOException {
        RangeRead read = fetch.read(position, into);
        noteLength(read);
        return read.bytes();
    }

    private synchronized void noteLength(RangeRead read) {
        if (read.objectLength() >= 0) {
            answeredLength = read.objectLength();
        }
    }

    private int fetchBlock(long position, ByteBuffer into, int blockBytes, Fetch fetch) throws IOException {
        byte[] bytes = new byte[blockBytes];
        RangeRead read;
        try {
            read = fetch.read(position, ByteBuffer.wrap(bytes));
        } catch (IOException | RuntimeException e) {
            budget.release(1, blockBytes);
            throw e;
        }
        noteLength(read);
        Block fetched = new Block(position, bytes, read.bytes());
        int copied = Math.min(into.remaining(), fetched.length);
        into.put(bytes, 0, copied);
        synchronized (this) {
            dropBlock();
            if (closed || copied == fetched.length) {
                budget.release(1, blockBytes);
            } else {
                block = fetched;
            }
        }
        return copied;
    }

    /** Copies what the block holds of the read at {@code position} into {@code into}; drops a used-up block. */
    private int copyFromBlock(long position, ByteBuffer into) {
        if (block == null || !block.holds(position)) {
            return 0;
        }
        int offset = (int) (position - block.start);
        int n = Math.min(into.remaining(), block.length - offset);
        into.put(block.bytes, offset, n);
        if (position + n == block.end()) {
            dropBlock();
        }
        return n;
    }

    private void dropBlock() {
        if (block != null) {
            budget.release(1, block.bytes.length);
            block = null;
        }
    }
}
