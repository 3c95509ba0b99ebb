package dev.flinks3.transfer.read;

import dev.flinks3.transfer.GetAnswer;
import dev.flinks3.transfer.ObjectClient;
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
 * A seekable input stream over one S3 object, read with bounded ranged GETs; what each read fetches is decided by
 * the stream's {@link ReadPolicy}.
 *
 * <p><b>Sequential reads.</b> Opening sends nothing; the first read sends a ranged GET from the current position
 * ({@link SequentialReader}), and later reads continue on that connection while they stay sequential. A range used
 * up by a reader that goes on is followed by a longer one on a fast connection (a LAN-attached Ceph or MinIO, where
 * one connection carries hundreds of MB/s), or by a parallel read-ahead of several ranged GETs into buffers taken
 * from the process-wide {@link ReadAheadBudget} on a slow one (S3 gives 50 to 90 MB/s per connection). A stream holds
 * at most parallelism x chunk size bytes of read-ahead buffers.
 *
 * <p><b>Lazy seek.</b> {@link #seek(long)} only records the wanted position. The next read skips a forward gap of up
 * to {@link ReadPolicy#MAX_FORWARD_SKIP_BYTES} bytes on the open connection; a reader that moves forward by at most
 * {@link ReadPolicy#SEQUENTIAL_SKIP_BYTES} bytes between reads is still reading sequentially. For a backward or
 * longer forward seek it releases the connection (a remainder of up to 64 KiB is drained so the connection is reused,
 * a larger one aborted) and sends a new ranged GET, small at first ({@link ReadPolicy.Start#AFTER_SEEK}), as a
 * reader that seeks away is often a random reader that wants a few KiB there.
 *
 * <p><b>Positional reads.</b> {@link #read(long, byte[], int, int)} and {@link #read(long, ByteBuffer)} (and their
 * {@code readFully} forms) never move this stream's position or touch its connection, as Flink's {@code
 * ByteBufferReadable} and disaggregated state (ForSt) expect. A random positional read is one ranged GET of exactly
 * the bytes asked for, its body copied into the caller's buffer (heap or direct) as it arrives; positional reads that
 * walk through the object (each starting where an earlier one ended, as an iterator over an SST file reads its
 * blocks) read from a streamed range that stays open while the walk goes on ({@link PositionalReads}).
 *
 * <p><b>One version.</b> Every GET after the stream's first (the next range, read-ahead, a re-request after a broken
 * body, positional reads) sends {@code If-Match} with the ETag the first answer carried, and every answer's length
 * and ETag must be the first ones: an object replaced while the stream reads it fails the read with an {@link
 * ObjectChangedException}, and no byte of the new version is handed out (S3 API reference, GetObject "If-Match";
 * S3A's change detection does the same).
 *
 * <p><b>Failures.</b> A missing object raises {@link FileNotFoundException} naming the {@code s3://} location, at the
 * first read (or at {@link #length()}). A connection that breaks mid-body is re-requested from the current position,
 * at most three GETs per range (or per positional read); throttling and 5xx are retried inside the {@link
 * ObjectClient}. Reading at or past the end returns -1, also for a zero-byte object.
 *
 * <p><b>Threads.</b> Sequential methods ({@code read}, {@code seek}, {@code skip}, ...) are for one thread at a time.
 * Positional reads may run on any number of threads at once, also while another thread reads sequentially. This
 * stream owns no threads and no client; the caller keeps the {@code ObjectClient} open until the stream is closed.
 */
public final class S3SeekableInputStream extends InputStream {

    private static final Logger LOG = LoggerFactory.getLogger(S3SeekableInputStream.class);

    /** Largest staging array a sequential read into a direct buffer copies through. */
    private static final int STAGING_BYTES = 64 * 1024;

    private final ObjectClient client;
    private final S3Location location;
    /** The ETag of the first answer, sent as {@code If-Match} by every later GET, and the object's length. */
    private final ObjectVersion version;
    /** The stream's own reads, at {@link #position}. */
    private final SequentialReader sequential;
    /** Reads at positions given by the caller; see {@link PositionalReads}. */
    private final PositionalReads positional;

    /** Sends the exact GET of a positional read; one for the stream, not one per read. */
    private final PositionalReads.Fetch exactGet = this::positionalGet;

    private long position;
    private volatile boolean closed;
    private final byte[] single = new byte[1];
    /** The array a sequential read into a direct buffer copies through, made at the first such read. */
    private byte[] staging;

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
        this(client, location, settings, knownLength, readAhead, ReadPolicy.FAST_CONNECTION_BYTES_PER_SECOND);
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
        this.client = Objects.requireNonNull(client, "client");
        this.location = Objects.requireNonNull(location, "location");
        if (knownLength < -1) {
            throw new IllegalArgumentException("known length " + knownLength + " of " + location + " must be >= -1");
        }
        ReadPolicy policy = ReadPolicy.of(settings).withFastConnection(fastConnectionBytesPerSecond);
        this.version = new ObjectVersion(location, knownLength);
        this.sequential = new SequentialReader(client, location, policy, version, readAhead, ReadPolicy.Start.OPENED);
        this.positional = new PositionalReads(client, location, policy, version, readAhead);
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
        sequential.moved(newPosition - position);
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
        long known = version.length();
        if (known < 0) {
            known = client.head(location).length();
            version.learnLength(known);
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
        int n = sequential.read(position, b, off, len);
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
        if (staging == null) {
            staging = new byte[STAGING_BYTES];
        }
        int n = read(staging, 0, Math.min(dst.remaining(), staging.length));
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
        long known = version.length();
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
            n = positional.read(position, dst, exactGet);
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
    private GetAnswer positionalGet(long position, ByteBuffer dst) throws IOException {
        if (LOG.isDebugEnabled()) {
            LOG.debug("Positional read of {} bytes at byte {} of {}", dst.remaining(), position, location);
        }
        return RangeFetch.of(client, location, position, dst, version.length(), version)
                .read();
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
        sequential.close();
        positional.close();
    }

    /** Bytes of read-ahead buffer this stream holds now; at most parallelism x chunk size. */
    long readAheadBufferedBytes() {
        return sequential.readAheadBufferedBytes();
    }

    /** Positional walks this stream holds open now. */
    int openWalks() {
        return positional.openWalks();
    }

    private boolean isAtEnd(long at) {
        long known = version.length();
        return known >= 0 && at >= known;
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
