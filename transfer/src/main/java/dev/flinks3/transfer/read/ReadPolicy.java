package dev.flinks3.transfer.read;

import dev.flinks3.transfer.ReadSettings;

/**
 * What a reader fetches, decided in one place: an exact range (a positional read that walks nowhere), a streamed
 * range that grows while the reader goes on (one connection, no buffer), or a parallel read-ahead (several ranged
 * GETs in flight into buffers). The input stream asks it with its state; it holds no state of its own. Immutable
 * and thread-safe.
 *
 * <p><b>Where a range starts.</b> A stream read at the position it was opened at (a restore reading a file through)
 * starts with a range of {@link ReadSettings#readAheadBytes()}. After a seek a reader is often a random reader that
 * wants a few KiB there, and the bytes of a large GET it then abandons are sent by the server all the same: its
 * first range is {@value #FIRST_RANGE_AFTER_SEEK_BYTES} bytes (or the read's length), each following one {@value
 * #RANGE_GROWTH}x the one before, up to the configured size. Positional reads that walk through the object ({@link
 * #continues}) get a streamed range from the walk's third read on, starting at {@value #FIRST_WALK_RANGE_BYTES}
 * bytes.
 *
 * <p><b>Streamed or parallel.</b> When a reader has used up a range of the configured size and goes on, the rate of
 * that range decides: on a connection that delivered it at {@value #FAST_CONNECTION_BYTES_PER_SECOND} bytes/s or more
 * (a server on the same LAN) the next range is streamed on one connection again, {@value #STREAMED_RANGE_GROWTH}x
 * as long, up to {@value #MAX_STREAMED_RANGE_BYTES} bytes; on a slower one (S3 gives 50 to 90 MB/s per connection)
 * the reader starts a parallel read-ahead of {@link ReadSettings#readAheadParallelism()} GETs of the configured
 * size (at most {@value #MAX_CHUNK_BYTES} bytes each).
 *
 * <p><b>Positional reads.</b> A positional read <em>continues</em> an earlier one if it starts at that read's end or
 * at most {@value #CONTINUING_GAP_BYTES} bytes after it; from the {@value #READS_BEFORE_WALK}th read in a row that
 * continues (the third of a walk: two adjacent point lookups are a coincidence, three are a walk; RocksDB's own
 * read-ahead for iterators also starts after two sequential reads), the walk reads from a streamed range that
 * stays open while it goes on. Any other positional read is one GET of exactly its bytes.
 */
public final class ReadPolicy {

    /** Bytes the first ranged GET after a seek asks for, at least: about 1 ms at 50 MB/s. */
    public static final int FIRST_RANGE_AFTER_SEEK_BYTES = 64 * 1024;

    /** Factor by which each range of a reader that stays sequential after a seek grows, up to the configured size. */
    public static final int RANGE_GROWTH = 4;

    /**
     * Longest forward move between two reads (a seek or skip ahead) of a reader that is still taken to read
     * sequentially: within or just past the bytes already asked for, it keeps the ranges growing and the read-ahead
     * going, as reading straight through would.
     */
    public static final long SEQUENTIAL_SKIP_BYTES = 16 * 1024;

    /**
     * Longest forward gap skipped by reading on the open connection rather than with a new ranged GET. A new GET
     * waits a first-byte latency (20 to 50 ms on S3, plus a handshake if the old connection must be aborted); at
     * 50 MB/s per connection 1 MiB arrives in about 20 ms, so shorter gaps are cheaper to read through.
     */
    public static final long MAX_FORWARD_SKIP_BYTES = 1024 * 1024;

    /**
     * Largest read-ahead chunk, whatever {@link ReadSettings#readAheadBytes()} says: a chunk is one heap array, and
     * 64 MiB per GET is far past the size where a GET runs at the connection's full rate.
     */
    public static final int MAX_CHUNK_BYTES = 64 * 1024 * 1024;

    /**
     * Rate of a full-size range at and above which a sequential reader stays on one connection instead of starting
     * the parallel read-ahead: twice what one S3 connection gives, far below what one connection to a server on the
     * same LAN gives. The rate is the range's bytes over the time the reader waited inside the body's reads: the
     * connection set-up and first-byte wait are left out (a cold JVM or a new connection stretches them once), and so
     * is the reader's own time between reads, so a reader slower than its connection (an SST scan that decodes each
     * block, a checksum over each read) is not taken for a slow connection; more connections would not make it
     * faster.
     */
    public static final long FAST_CONNECTION_BYTES_PER_SECOND = 200_000_000L;

    /**
     * Factor by which each range of a sequential reader on a fast connection grows, up to {@link
     * #MAX_STREAMED_RANGE_BYTES}: with the default 8 MiB, 8 MiB, then 64 MiB, then 512 MiB.
     */
    public static final int STREAMED_RANGE_GROWTH = 8;

    /**
     * Longest range a sequential reader on a fast connection grows to. A streamed range holds no buffer, and a
     * reader that stops early aborts its connection at close (the server stops sending then), so a longer range
     * costs only fewer requests. Each new range makes the reader wait for its first byte with nothing in flight:
     * 512 MiB read in ranges doubling up to 64 MiB took 11 GETs and waited 0.05 s of 0.25 s on a LAN; growing 8x per
     * range it takes 3. Each range's end is also where the reader measures its connection again.
     */
    public static final long MAX_STREAMED_RANGE_BYTES = 1024L * 1024 * 1024;

    /** Longest gap between one positional read's end and the next one's start that still continues a walk. */
    public static final int CONTINUING_GAP_BYTES = 4 * 1024;

    /** Positional reads in a row that continue before the walk reads from a streamed range. */
    public static final int READS_BEFORE_WALK = 2;

    /**
     * Bytes of a walk's first streamed range, at least: 64 blocks of RocksDB's 16 KiB, about 20 ms at 50 MB/s; its
     * ranges then grow as a sequential reader's do. A walk that stops within it leaves at most this much unread.
     */
    public static final int FIRST_WALK_RANGE_BYTES = 1024 * 1024;

    /** How a reader came to the position its range starts at. */
    public enum Start {
        /** The stream's first read, at the position it was opened at: a reader going through the file. */
        OPENED,
        /** A seek (backward, or forward past {@link #SEQUENTIAL_SKIP_BYTES}) or a read that broke the sequence. */
        AFTER_SEEK,
        /** The third positional read of a walk. */
        WALK
    }

    private final long readAheadBytes;
    private final int chunkBytes;
    private final int parallelism;
    private final long fastConnectionBytesPerSecond;

    private ReadPolicy(long readAheadBytes, int parallelism, long fastConnectionBytesPerSecond) {
        this.readAheadBytes = readAheadBytes;
        this.chunkBytes = (int) Math.min(readAheadBytes, MAX_CHUNK_BYTES);
        this.parallelism = parallelism;
        this.fastConnectionBytesPerSecond = fastConnectionBytesPerSecond;
    }

    /** The policy of {@code settings}' range size and read-ahead parallelism. */
    public static ReadPolicy of(ReadSettings settings) {
        return new ReadPolicy(
                settings.readAheadBytes(), settings.readAheadParallelism(), FAST_CONNECTION_BYTES_PER_SECOND);
    }

    /**
     * This policy with another rate at which a connection is fast enough to keep a sequential reader streaming:
     * {@link Long#MAX_VALUE} never does (tests on an in-memory client see the parallel read-ahead).
     */
    ReadPolicy withFastConnection(long bytesPerSecond) {
        return new ReadPolicy(readAheadBytes, parallelism, bytesPerSecond);
    }

    /** Bytes of a full-size range, {@link ReadSettings#readAheadBytes()}. */
    long rangeBytes() {
        return readAheadBytes;
    }

    /** Bytes of one parallel read-ahead GET (one chunk buffer). */
    int chunkBytes() {
        return chunkBytes;
    }

    /** Parallel read-ahead GETs in flight, and chunks in a window, at most. */
    int parallelism() {
        return parallelism;
    }

    /** The bytes the first range of a reader that starts as {@code start} asks for, for a read of {@code length}. */
    long firstRange(Start start, int length) {
        switch (start) {
            case OPENED:
                return readAheadBytes;
            case AFTER_SEEK:
                return Math.min(readAheadBytes, Math.max(FIRST_RANGE_AFTER_SEEK_BYTES, length));
            case WALK:
                return Math.max(FIRST_WALK_RANGE_BYTES, length);
            default:
                throw new IllegalArgumentException("unknown start " + start);
        }
    }

    /**
     * The range after one of {@code usedUp} bytes that a reader used up while it read sequentially: {@value
     * #RANGE_GROWTH}x as long up to the configured size while it is below it; from the configured size on, {@value
     * #STREAMED_RANGE_GROWTH}x as long up to {@value #MAX_STREAMED_RANGE_BYTES} on a fast connection, the same size
     * on a slow one (where a parallel read-ahead takes over if it can, see {@link #startsParallelReadAhead}).
     */
    long nextRange(long usedUp, boolean fastConnection) {
        if (usedUp < readAheadBytes) {
            return Math.min(readAheadBytes, usedUp * RANGE_GROWTH);
        }
        return fastConnection
                ? Math.max(usedUp, Math.min(MAX_STREAMED_RANGE_BYTES, usedUp * STREAMED_RANGE_GROWTH))
                : usedUp;
    }

    /**
     * Whether a sequential reader that used up a range of {@code bytes} starts a parallel read-ahead: a full-size
     * range on a connection slower than {@value #FAST_CONNECTION_BYTES_PER_SECOND} bytes/s ({@link #isFast}), and
     * parallelism above 1.
     */
    boolean startsParallelReadAhead(long bytes, boolean fastConnection) {
        return parallelism > 1 && bytes >= readAheadBytes && !fastConnection;
    }

    /** True if {@code bytes} in {@code nanos} ns is at least the fast-connection rate. */
    boolean isFast(long bytes, long nanos) {
        return fastConnectionBytesPerSecond != Long.MAX_VALUE
                && (nanos <= 0 || bytes * 1_000_000_000.0 / nanos >= fastConnectionBytesPerSecond);
    }

    /** Whether a positional read at {@code position} continues one that ended at {@code end}. */
    static boolean continues(long end, long position) {
        return end >= 0 && position >= end && position - end <= CONTINUING_GAP_BYTES;
    }

    @Override
    public String toString() {
        return "ReadPolicy{rangeBytes=" + readAheadBytes + ", parallelism=" + parallelism + "}";
    }
}
