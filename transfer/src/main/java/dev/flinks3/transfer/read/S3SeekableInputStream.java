package dev.flinks3.transfer.read;

import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.RangeRead;
import dev.flinks3.transfer.ReadSettings;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A seekable input stream over one S3 object, read with bounded ranged GETs.
 *
 * <p><b>Sequential reads.</b> Opening sends nothing; the first read sends a ranged GET of
 * {@link ReadSettings#readAheadBytes()} bytes from the current position, and later reads continue on
 * that connection while they stay sequential. When a range is used up and the reader goes on, the
 * reader is taken to be sequential: with a read-ahead budget and {@link
 * ReadSettings#readAheadParallelism()} above 1, a parallel read-ahead then keeps that many ranged
 * GETs of {@link ReadSettings#readAheadBytes()} (at most {@value #MAX_CHUNK_BYTES} bytes) in flight
 * ahead of the reader, their bodies copied into its window's chunks by the HTTP client as they arrive;
 * without, the next range is requested on one connection. A connection that delivered its full-size
 * range at {@value #FAST_CONNECTION_BYTES_PER_SECOND} bytes/s or more (a LAN-attached Ceph or MinIO,
 * where one connection carries hundreds of MB/s) keeps the reader: the next range is asked for on one
 * connection again, {@value #STREAMED_RANGE_GROWTH}x as long each time up to {@value #MAX_STREAMED_RANGE_BYTES}
 * bytes, as parallel GETs would add requests and copies and no speed; a slower one (S3 gives
 * 50 to 90 MB/s per connection) starts the read-ahead. A read outside the
 * read-ahead window (a backward or long seek) drops the read-ahead and goes back to one connection.
 * A stream holds at most parallelism x chunk size bytes of read-ahead buffers.
 *
 * <p><b>Lazy seek.</b> {@link #seek(long)} only records the wanted position. The next read skips a
 * forward gap of up to {@value #MAX_FORWARD_SKIP_BYTES} bytes on the open connection; a reader that
 * moves forward by at most {@value #SEQUENTIAL_SKIP_BYTES} bytes between reads, within or just past the
 * range asked for, is still reading sequentially (its ranges keep growing, its read-ahead keeps going).
 * For a backward or longer forward seek it releases the connection (a remainder of up to 64 KiB is drained so the
 * connection is reused, a larger one aborted) and sends a new ranged GET.
 *
 * <p><b>Adaptive range after a seek.</b> A reader that seeks away is often a random reader that
 * wants a few KiB there, and the bytes of a large GET it then abandons are sent by the server all
 * the same. So the first GET after a seek asks for {@value #FIRST_RANGE_AFTER_SEEK_BYTES} bytes (or
 * the read's length, if larger), and each following range of a reader that stays sequential is
 * {@value #RANGE_GROWTH}x the one before, up to {@link ReadSettings#readAheadBytes()}; only a reader
 * that used up a full-size range gets the parallel read-ahead. A stream's first read at the position
 * it was opened at (no seek) starts at the full size, as sequential readers (restore) do.
 *
 * <p><b>Positional reads.</b> {@link #read(long, byte[], int, int)} and {@link #read(long, ByteBuffer)}
 * (and their {@code readFully} forms) send one ranged GET of exactly the bytes asked for, and never
 * move this stream's position or touch its connection, as Flink's {@code ByteBufferReadable} and
 * disaggregated state (ForSt) expect. Positional reads that walk through the object (each starting
 * where the one before ended, as an iterator over an SST file reads its blocks) are served from
 * blocks of up to 1 MiB read ahead, one GET per block ({@link PositionalReadAhead}); their bytes come
 * from the read-ahead budget.
 *
 * <p><b>One version.</b> Every GET after the stream's first (the next range, read-ahead, a re-request
 * after a broken body, positional reads) sends {@code If-Match} with the ETag the first answer carried,
 * and every answer's length and ETag must be the first ones: an object replaced while the stream reads
 * it fails the read with an {@link ObjectChangedException}, and no byte of the new version is handed
 * out (S3 API reference, GetObject "If-Match"; S3A's change detection does the same).
 *
 * <p><b>Failures.</b> A missing object raises {@link FileNotFoundException} naming the {@code s3://}
 * location, at the first read (or at {@link #length()}). A connection that breaks mid-body is
 * re-requested from the current position, at most three GETs per range (or per positional read);
 * throttling and 5xx are retried inside the {@link ObjectClient}. Reading at or past the end returns
 * -1, also for a zero-byte object.
 *
 * <p><b>Threads.</b> Sequential methods ({@code read}, {@code seek}, {@code skip}, ...) are for one
 * thread at a time. Positional reads may run on any number of threads at once, also while another
 * thread reads sequentially. This stream owns no threads and no client; the caller keeps the {@code
 * ObjectClient} open until the stream is closed.
 */
public final class S3SeekableInputStream extends InputStream {

    private static final Logger LOG = LoggerFactory.getLogger(S3SeekableInputStream.class);

    /**
     * Longest forward gap skipped by reading on the open connection rather than with a new ranged GET.
     * A new GET waits a first-byte latency (20 to 50 ms on S3, plus a handshake if the old connection
     * must be aborted); at 50 MB/s per connection 1 MiB arrives in about 20 ms, so shorter gaps are
     * cheaper to read through.
     */
    public static final long MAX_FORWARD_SKIP_BYTES = 1024 * 1024;

    /**
     * Largest read-ahead chunk, whatever {@link ReadSettings#readAheadBytes()} says: a chunk is one heap
     * array, and 64 MiB per GET is far past the size where a GET runs at the connection's full rate.
     */
    public static final int MAX_CHUNK_BYTES = 64 * 1024 * 1024;

    /** Bytes the first ranged GET after a seek asks for, at least: about 1 ms at 50 MB/s. */
    public static final int FIRST_RANGE_AFTER_SEEK_BYTES = 64 * 1024;

    /** Factor by which each range of a reader that stays sequential after a seek grows. */
    public static final int RANGE_GROWTH = 4;

    /**
     * Longest forward move between two reads (a {@link #seek} or {@link #skip} ahead) of a reader that is
     * still taken to read sequentially: within or just past the bytes already asked for, it keeps the
     * ranges growing and the read-ahead going, as reading straight through would, instead of starting
     * again at {@value #FIRST_RANGE_AFTER_SEEK_BYTES} bytes.
     */
    public static final long SEQUENTIAL_SKIP_BYTES = 16 * 1024;

    /**
     * Rate of a full-size range (from its answer's headers to its last byte read, the reader's own time
     * included; the connection set-up and first-byte wait left out, as a cold JVM or a new connection
     * stretches them once) at and above which a sequential reader stays on one connection instead of starting the parallel
     * read-ahead: twice what one S3 connection gives, far below what one connection to a server on the
     * same LAN gives.
     */
    public static final long FAST_CONNECTION_BYTES_PER_SECOND = 200_000_000L;

    /**
     * Factor by which each range of a sequential reader on a fast connection grows, up to {@link
     * #MAX_STREAMED_RANGE_BYTES}: with the default 8 MiB, 8 MiB, then 64 MiB, then 512 MiB.
     */
    public static final int STREAMED_RANGE_GROWTH = 8;

    /**
     * Longest range a sequential reader on a fast connection grows to. A streamed range holds no buffer, and a
     * reader that stops early aborts its connection at {@link #close()} (the server stops sending then), so a
     * longer range costs only fewer requests. Each new range makes the reader wait for its first byte with
     * nothing in flight: 512 MiB read in ranges doubling up to 64 MiB took 11 GETs and waited 0.05 s of 0.25 s
     * on a LAN; growing 8x per range it takes 3. Each range's end is also where the reader measures its
     * connection again (at 200 MB/s, 1 GiB is at most 5 s), and starts the parallel read-ahead if it became slow.
     */
    public static final long MAX_STREAMED_RANGE_BYTES = 1024L * 1024 * 1024;

    private final ObjectClient client;
    private final S3Location location;
    private final long rangeBytes;
    private final int chunkBytes;
    private final int parallelism;
    private final ReadAheadBudget readAheadBudget;
    /** {@link #FAST_CONNECTION_BYTES_PER_SECOND}, or another rate in tests. */
    private final long fastConnectionBytesPerSecond;
    /** The ETag of the first answer, sent as {@code If-Match} by every later GET of this stream. */
    private final ObjectVersion version;

    private volatile long length;
    private long position;
    private RangeReader range;
    /** Bytes the open range gave to reads (skipped bytes not counted), to tell a sequential reader. */
    private long rangeBytesRead;
    /** Longest forward gap skipped on the open range, to tell a reader that skips a little from a random one. */
    private long rangeLongestSkip;
    /** Bytes the next range asks for when a reader continues sequentially; shrinks after a seek. */
    private long nextRangeBytes;
    /**
     * True once {@link #seek} moved the position away from where sequential reading would go on: backward,
     * forward by more than {@value #SEQUENTIAL_SKIP_BYTES} bytes, or anywhere before any range was asked for.
     */
    private boolean seekedAway;

    private ParallelReadAhead readAhead;
    /** The block of positional reads that walk through the object; see {@link PositionalReadAhead}. */
    private final PositionalReadAhead positionalReadAhead;
    /** Chunks {@link #readAhead} took from the budget, given back when it closes. */
    private int readAheadChunks;

    private volatile boolean closed;
    private final byte[] single = new byte[1];

    /**
     * Creates a stream that reads over one connection at a time (no parallel read-ahead); sends no request.
     *
     * @see #S3SeekableInputStream(ObjectClient, S3Location, ReadSettings, long, ReadAheadBudget)
     */
    public S3SeekableInputStream(ObjectClient client, S3Location location, ReadSettings settings, long knownLength) {
        this(client, location, settings, knownLength, null);
    }

    /**
     * Creates the stream; sends no request.
     *
     * @param client the S3 seam; not owned, must stay open while the stream is used
     * @param location the object to read
     * @param settings range and chunk size ({@link ReadSettings#readAheadBytes()}) and read-ahead
     *     parallelism ({@link ReadSettings#readAheadParallelism()})
     * @param knownLength the object's length in bytes if the caller knows it (from a listing or HEAD),
     *     otherwise -1; a known length spares requests past the end and the HEAD of {@link #length()}
     * @param readAhead the process-wide budget of read-ahead windows, shared by streams; {@code null}
     *     reads over one connection at a time
     */
    public S3SeekableInputStream(
            ObjectClient client,
            S3Location location,
            ReadSettings settings,
            long knownLength,
            ReadAheadBudget readAhead) {
        this(client, location, settings, knownLength, readAhead, FAST_CONNECTION_BYTES_PER_SECOND);
    }

    /**
     * As {@link #S3SeekableInputStream(ObjectClient, S3Location, ReadSettings, long, ReadAheadBudget)}
     * with the rate at which a connection is fast enough to keep a sequential reader ({@link
     * Long#MAX_VALUE}: never, so tests on an in-memory client see the read-ahead).
     */
    S3SeekableInputStream(
            ObjectClient client,
            S3Location location,
            ReadSettings settings,
            long knownLength,
            ReadAheadBudget readAhead,
            long fastConnectionBytesPerSecond) {
        this.fastConnectionBytesPerSecond = fastConnectionBytesPerSecond;
        this.client = Objects.requireNonNull(client, "client");
        this.location = Objects.requireNonNull(location, "location");
        this.rangeBytes = settings.readAheadBytes();
        this.nextRangeBytes = rangeBytes;
        this.chunkBytes = (int) Math.min(settings.readAheadBytes(), MAX_CHUNK_BYTES);
        this.parallelism = settings.readAheadParallelism();
        this.readAheadBudget = readAhead;
        this.version = new ObjectVersion(location);
        this.positionalReadAhead = new PositionalReadAhead(readAhead, rangeBytes);
        if (knownLength < -1) {
            throw new IllegalArgumentException("known length " + knownLength + " of " + location + " must be >= -1");
        }
        this.length = knownLength;
    }

    /** The object this stream reads. */
    public S3Location location() {
        return location;
    }

    /**
     * Moves the read position to {@code newPosition} bytes from the object's start; sends nothing. A
     * position at or past the end is allowed: reads there return -1.
     *
     * @throws EOFException if {@code newPosition} is negative
     * @throws IOException if the stream is closed
     */
    public void seek(long newPosition) throws IOException {
        ensureOpen();
        if (newPosition < 0) {
            throw new EOFException("cannot seek to negative position " + newPosition + " in " + location);
        }
        long ahead = newPosition - position;
        boolean reading = range != null || readAhead != null;
        if (ahead != 0 && (!reading || ahead < 0 || ahead > SEQUENTIAL_SKIP_BYTES)) {
            seekedAway = true;
        }
        position = newPosition;
    }

    /** The position of the next byte a sequential read returns, in bytes from the object's start. */
    public long getPos() {
        return position;
    }

    /**
     * The object's length in bytes: the one given at construction, or learnt from a GET's
     * {@code Content-Range}, or else from one HeadObject, made at most once.
     *
     * @throws FileNotFoundException if the object does not exist
     */
    public long length() throws IOException {
        ensureOpen();
        long known = length;
        if (known < 0) {
            known = client.head(location).length();
            length = known;
        }
        return known;
    }

    @Override
    public int read() throws IOException {
        int n = read(single, 0, 1);
        return n < 0 ? -1 : single[0] & 0xFF;
    }

    /**
     * Reads up to {@code len} bytes at the current position and advances it; blocks until at least
     * one byte arrives.
     *
     * @return bytes read, or -1 at or past the end of the object
     * @throws FileNotFoundException if the object does not exist
     * @throws IOException if the stream is closed or the object cannot be read (see the class notes on retries)
     */
    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureOpen();
        if (len == 0) {
            return 0;
        }
        if (isAtEnd(position)) {
            return -1;
        }
        int n = readSequential(b, off, len);
        if (n > 0) {
            position += n;
        }
        return n;
    }

    /**
     * Reads up to {@code dst.remaining()} bytes at the current position into {@code dst} and advances
     * both positions.
     *
     * @return bytes read, or -1 at or past the end of the object
     */
    public int read(ByteBuffer dst) throws IOException {
        if (dst.hasArray()) {
            int n = read(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
            if (n > 0) {
                dst.position(dst.position() + n);
            }
            return n;
        }
        byte[] staging = new byte[Math.min(dst.remaining(), RangeReader.STAGING_BYTES)];
        int n = read(staging, 0, staging.length);
        if (n > 0) {
            dst.put(staging, 0, n);
        }
        return n;
    }

    /**
     * Moves the position forward by up to {@code n} bytes without reading (the bytes are skipped at
     * the next read), never past the object's end. Needs the length, so it may send one HeadObject if
     * no GET has answered yet.
     *
     * @return bytes skipped; 0 if {@code n <= 0} or at the end
     */
    @Override
    public long skip(long n) throws IOException {
        ensureOpen();
        if (n <= 0) {
            return 0;
        }
        long skipped = Math.max(0, Math.min(n, length() - position));
        position += skipped;
        return skipped;
    }

    /**
     * Bytes left before the end of the object, capped at {@link Integer#MAX_VALUE}, if the length is
     * known (it is after the first read), otherwise 0. Sends no request.
     */
    @Override
    public int available() throws IOException {
        ensureOpen();
        long known = length;
        if (known >= 0) {
            return (int) Math.min(Integer.MAX_VALUE, Math.max(0, known - position));
        }
        return 0;
    }

    /**
     * Reads up to {@code len} bytes at {@code position} with one ranged GET (or from the block of a walk
     * through the object, see {@link PositionalReadAhead}), without moving this stream. Reads until
     * {@code len} bytes or the object's end; the body is copied into {@code b} by the HTTP client as it
     * arrives ({@link RangeFetch}).
     *
     * @return bytes read, or -1 if {@code position} is at or past the end
     * @throws EOFException if {@code position} is negative
     * @throws FileNotFoundException if the object does not exist
     */
    public int read(long position, byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        return readAt(position, ByteBuffer.wrap(b, off, len));
    }

    /**
     * Reads exactly {@code len} bytes at {@code position} with at most one ranged GET, without moving this stream.
     *
     * @throws EOFException if the object ends before {@code position + len}, or {@code position} is negative
     */
    public void readFully(long position, byte[] b, int off, int len) throws IOException {
        int n = read(position, b, off, len);
        if (n < len) {
            throw prematureEnd(position, len, n);
        }
    }

    /**
     * Reads up to {@code dst.remaining()} bytes at {@code position} into {@code dst} with at most one ranged GET,
     * without moving this stream; advances {@code dst}'s position by the bytes read.
     *
     * @return bytes read, or -1 if {@code position} is at or past the end
     * @throws EOFException if {@code position} is negative
     * @throws FileNotFoundException if the object does not exist
     */
    public int read(long position, ByteBuffer dst) throws IOException {
        int n = readAt(position, dst);
        if (n > 0) {
            dst.position(dst.position() + n);
        }
        return n;
    }

    /**
     * One positional read into {@code dst} (heap or direct) from its position to its limit, whose body
     * the HTTP client copies straight into it; does not move {@code dst}.
     *
     * @return bytes read, or -1 if {@code position} is at or past the end
     */
    private int readAt(long position, ByteBuffer dst) throws IOException {
        checkPositional(position);
        if (!dst.hasRemaining()) {
            return 0;
        }
        if (isAtEnd(position)) {
            return -1;
        }
        int n;
        try {
            n = positionalReadAhead.read(position, dst, length, this::positionalGet);
        } catch (EOFException pastTheEnd) {
            return -1;
        } catch (S3RequestException e) {
            // 416: at or past the end, also the answer of some servers to any range of an empty object.
            if (e.statusCode() == 416) {
                return -1;
            }
            throw e;
        }
        return n == 0 ? -1 : n;
    }

    /** One ranged GET of a positional read (or of its read-ahead block) into {@code dst}, not moved. */
    private RangeRead positionalGet(long position, ByteBuffer dst) throws IOException {
        if (LOG.isDebugEnabled()) {
            LOG.debug("Positional read of {} bytes at byte {} of {}", dst.remaining(), position, location);
        }
        RangeRead read =
                RangeFetch.of(client, location, position, dst, length, version).read();
        if (read.objectLength() >= 0) {
            length = read.objectLength();
        }
        return read;
    }

    /**
     * Fills {@code dst} from {@code position} with at most one ranged GET, without moving this stream.
     *
     * @throws EOFException if the object ends before {@code dst} is full, or {@code position} is negative
     */
    public void readFully(long position, ByteBuffer dst) throws IOException {
        int wanted = dst.remaining();
        int n = read(position, dst);
        if (n < wanted) {
            throw prematureEnd(position, wanted, n);
        }
    }

    /**
     * Releases the connection (drains a remainder of a few KiB, aborts a larger one), cancels the
     * read-ahead GETs in flight and drops its buffers. Idempotent; never fails because of the connection.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeRange();
        closeReadAhead();
        positionalReadAhead.close();
    }

    /** Bytes of read-ahead buffer this stream holds now; at most parallelism x chunk size. */
    long readAheadBufferedBytes() {
        return readAhead == null ? 0 : readAhead.bufferedBytes();
    }

    private int readSequential(byte[] b, int off, int len) throws IOException {
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
                        && position - range.position() <= SEQUENTIAL_SKIP_BYTES
                        && (rangeBytesRead >= (range.end() - range.start()) / 2
                                || rangeLongestSkip <= SEQUENTIAL_SKIP_BYTES);
                long rangeLength = range.end() - range.start();
                boolean fullSize = rangeLength >= rangeBytes;
                boolean fastConnection =
                        isFast(rangeLength, System.nanoTime() - range.firstAnswerNanos(), fastConnectionBytesPerSecond);
                closeRange();
                if (sequential && fullSize && fastConnection) {
                    // Streamed, a longer range costs no buffer, only fewer requests.
                    nextRangeBytes = Math.max(
                            rangeLength, Math.min(MAX_STREAMED_RANGE_BYTES, STREAMED_RANGE_GROWTH * rangeLength));
                }
                if (sequential && fullSize && !fastConnection && startReadAhead()) {
                    return readAhead.read(position, b, off, len);
                }
                if (!sequential) {
                    seekedAway = true;
                }
            }
            if (range == null) {
                long size = nextRangeSize(len);
                range = new RangeReader(client, location, position, endOf(position, size), length, version);
                if (LOG.isDebugEnabled()) {
                    LOG.debug("Ranged GET of bytes {} to {} of {}", position, range.end(), location);
                }
                rangeBytesRead = 0;
                rangeLongestSkip = 0;
            }
            long gap = position - range.position();
            rangeLongestSkip = Math.max(rangeLongestSkip, gap);
            if (gap > 0 && range.discard(gap) < gap) {
                learnLength(range);
                closeRange();
                return -1;
            }
            int n = range.read(b, off, len);
            learnLength(range);
            if (n >= 0) {
                rangeBytesRead += n;
                return n;
            }
            if (isAtEnd(position) || range.position() < range.end()) {
                closeRange();
                return -1;
            }
            // The range is used up at its end and the object goes on: the next turn sees a sequential reader.
        }
    }

    /** True if {@code bytes} in {@code nanos} ns is at least {@code fast} bytes/s. */
    static boolean isFast(long bytes, long nanos, long fast) {
        return fast != Long.MAX_VALUE && (nanos <= 0 || bytes * 1_000_000_000.0 / nanos >= fast);
    }

    /**
     * Bytes of the range about to open: small after a seek (but at least {@code len}), then growing by
     * {@value #RANGE_GROWTH}x per range while the reader stays sequential, up to the configured size.
     */
    private long nextRangeSize(int len) {
        if (seekedAway) {
            seekedAway = false;
            nextRangeBytes = Math.min(rangeBytes, Math.max(FIRST_RANGE_AFTER_SEEK_BYTES, len));
        }
        long size = nextRangeBytes;
        nextRangeBytes = Math.min(rangeBytes, nextRangeBytes * RANGE_GROWTH);
        return size;
    }

    /**
     * Starts parallel read-ahead at the current position if this stream may (workers, parallelism
     * above 1, the length known, bytes left, and at least two chunks free in the budget; a window of
     * as many chunks as the budget grants, up to the parallelism).
     */
    private boolean startReadAhead() {
        if (readAheadBudget == null || parallelism < 2 || length < 0 || position >= length) {
            return false;
        }
        int chunks = readAheadBudget.tryAcquire(parallelism, chunkBytes);
        if (chunks == 0) {
            return false;
        }
        readAheadChunks = chunks;
        readAhead = new ParallelReadAhead(client, location, position, length, chunkBytes, chunks, version);
        return true;
    }

    /** True if {@code wanted} can be served by the open range: it lies ahead and close enough to skip to. */
    private static boolean continuesAt(RangeReader open, long wanted) {
        long gap = wanted - open.position();
        return gap >= 0 && gap <= MAX_FORWARD_SKIP_BYTES && wanted < open.end() && !open.isExhausted();
    }

    private void closeReadAhead() {
        if (readAhead != null) {
            readAhead.close();
            readAhead = null;
            readAheadBudget.release(readAheadChunks, chunkBytes);
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

    private boolean isAtEnd(long at) {
        long known = length;
        return known >= 0 && at >= known;
    }

    private void learnLength(RangeReader reader) {
        if (length < 0 && reader.objectLength() >= 0) {
            length = reader.objectLength();
        }
    }

    private void checkPositional(long at) throws IOException {
        ensureOpen();
        if (at < 0) {
            throw new EOFException("cannot read at negative position " + at + " in " + location);
        }
    }

    private EOFException prematureEnd(long at, int wanted, int got) {
        return new EOFException("reading " + wanted + " bytes at byte " + at + " of " + location
                + ": the object ends after " + Math.max(got, 0) + " of them");
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("input stream of " + location + " is closed");
        }
    }
}
