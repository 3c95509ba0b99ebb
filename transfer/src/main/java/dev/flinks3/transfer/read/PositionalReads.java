package dev.flinks3.transfer.read;

import dev.flinks3.transfer.GetAnswer;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The positional reads of one stream: each is one GET of exactly its bytes, except those of a <em>walk</em>, which
 * read from a streamed range that stays open while the walk goes on.
 *
 * <p>A reader (RocksDB or ForSt iterating an SST file, block after block) walks when its positional reads each start
 * where an earlier one ended, or a few KiB after it ({@link ReadPolicy#continues}). The stream remembers the ends of
 * its last {@value #RECENT_READS} exact reads and how many reads in a row led to each, so reads of several threads
 * interleaved on one stream (ForSt's read threads share a file's stream) are told apart. From the {@link
 * ReadPolicy#READS_BEFORE_WALK}th read that continues, the walk gets a {@link SequentialReader} of its own: a
 * streamed ranged GET from that read on, which grows as the walk goes on (or a parallel read-ahead on a slow
 * connection), and each read of the walk takes its bytes from that GET's body through the walk's buffer ({@value
 * #WALK_BUFFER_BYTES} bytes asked of the socket at once, so a walk of 16 KiB blocks reads the socket up to 8 times
 * less often). A stream holds at most {@value #MAX_WALKS} walks; reads
 * that continue no walk and no recent read (point lookups, ForSt's random state reads) stay one exact GET each, and a
 * random reader never pays for bytes it did not ask for.
 *
 * <p><b>Connections.</b> A walk holds one connection while its stream is open, and state files stay open for long
 * (RocksDB's table cache keeps them open). So all walks of the process share the {@link ReadAheadBudget}'s bound on
 * open walks; when it is reached, a walk unused for {@value #IDLE_WALK_MILLIS} ms (of any stream) is closed for the
 * new one, and if none is, the new walk's reads stay exact GETs. A walk is closed when its stream closes, when it
 * reaches the object's end, and when a read of it fails.
 *
 * <p>Thread-safe: positional reads may come from several threads at once. The state is guarded by this object; GETs
 * and the reads of a walk run outside the lock, and a walk serves one read at a time (a concurrent read that
 * continues it is served by an exact GET instead of waiting).
 */
final class PositionalReads {

    /** Walks one stream holds at once, at most: ForSt reads a file from a few threads. */
    static final int MAX_WALKS = 4;

    /** Exact reads whose ends a stream remembers to tell a walk. */
    static final int RECENT_READS = 8;

    /** A walk unused this long may be closed for a walk of another stream when all connections for walks are in use. */
    static final long IDLE_WALK_MILLIS = 1000;

    /**
     * Bytes a walk reads from its range at once, ahead of its reads: 8 blocks of RocksDB's 16 KiB per read of the
     * socket instead of one, as a sequential reader's buffered stream does. At most {@value #MAX_WALKS} walks per
     * stream and the budget's walks per process hold one each.
     */
    static final int WALK_BUFFER_BYTES = 128 * 1024;

    /** Sends one ranged GET of {@code dst.remaining()} bytes at {@code position} into {@code dst}, not moved. */
    interface Fetch {
        /**
         * @return what was copied; fewer bytes where the object ends first
         * @throws IOException as the stream's GETs fail
         */
        GetAnswer read(long position, ByteBuffer dst) throws IOException;
    }

    /**
     * One walk: its reader, where it expects its next read, and the bytes it read from its range ahead of its reads
     * (the reads of a walk each ask for a block, and a read of the socket per block costs a system call per block).
     */
    private final class Walk {
        final SequentialReader reader;
        long next;
        boolean busy;
        long lastUsedNanos;
        /** Bytes {@code [bufferStart, bufferStart + buffered)} of the object, read from the walk's range. */
        private byte[] buffer;

        private long bufferStart;
        private int buffered;

        Walk(long start) {
            this.reader = new SequentialReader(client, location, policy, version, budget, ReadPolicy.Start.WALK);
            this.next = start;
            this.busy = true;
        }

        /**
         * Reads {@code dst.remaining()} bytes at {@code position} into {@code dst} (not moved), fewer at the end:
         * from the walk's buffer, refilled from its range with one read of up to {@value #WALK_BUFFER_BYTES} bytes
         * when used up; a read into an array of at least that many bytes goes straight into it.
         */
        int read(long position, ByteBuffer dst) throws IOException {
            int wanted = dst.remaining();
            ByteBuffer into = dst.duplicate();
            int done = 0;
            while (done < wanted) {
                long at = position + done;
                int left = wanted - done;
                if (at >= bufferStart && at < bufferStart + buffered) {
                    int n = (int) Math.min(left, bufferStart + buffered - at);
                    into.put(buffer, (int) (at - bufferStart), n);
                    done += n;
                    continue;
                }
                int n;
                if (into.hasArray() && left >= WALK_BUFFER_BYTES) {
                    n = reader.read(at, into.array(), into.arrayOffset() + into.position(), left);
                    if (n > 0) {
                        into.position(into.position() + n);
                    }
                } else {
                    if (buffer == null) {
                        buffer = new byte[WALK_BUFFER_BYTES];
                    }
                    n = reader.read(at, buffer, 0, buffer.length);
                    bufferStart = at;
                    buffered = Math.max(n, 0);
                    if (n > 0) {
                        continue;
                    }
                }
                if (n <= 0) {
                    break;
                }
                done += n;
            }
            return done;
        }
    }

    private final ObjectClient client;
    private final S3Location location;
    private final ReadPolicy policy;
    private final ObjectVersion version;
    private final ReadAheadBudget budget;

    private final List<Walk> walks = new ArrayList<>(MAX_WALKS);
    /** Ends of the last exact reads (-1: none) and the reads in a row that led to each. */
    private final long[] recentEnds = new long[RECENT_READS];

    private final int[] recentChains = new int[RECENT_READS];
    private int nextRecent;
    private boolean closed;

    /**
     * @param budget bounds the open walks of the process (and the buffers of their read-ahead); {@code null}: no
     *     walks, every positional read is exact
     */
    PositionalReads(
            ObjectClient client,
            S3Location location,
            ReadPolicy policy,
            ObjectVersion version,
            ReadAheadBudget budget) {
        this.client = client;
        this.location = location;
        this.policy = policy;
        this.version = version;
        this.budget = budget;
        java.util.Arrays.fill(recentEnds, -1);
    }

    /**
     * Reads {@code dst.remaining()} bytes at {@code position} into {@code dst} (not moved): from a walk's streamed
     * range where the read continues one, else with {@code exact}.
     *
     * @return bytes copied: {@code dst.remaining()}, or fewer where the object ends; 0 at the end
     * @throws IOException as the GETs fail; a walk whose read failed is closed
     */
    int read(long position, ByteBuffer dst, Fetch exact) throws IOException {
        int wanted = dst.remaining();
        Walk walk;
        int chain;
        synchronized (this) {
            walk = continuedWalk(position);
            chain = walk == null ? chainEndingAt(position) + 1 : 0;
        }
        if (walk == null && chain > ReadPolicy.READS_BEFORE_WALK) {
            walk = openWalk(position);
        }
        if (walk == null) {
            GetAnswer read = exact.read(position, dst);
            synchronized (this) {
                remember(position + wanted, chain);
            }
            return (int) read.bytes();
        }
        int n;
        try {
            n = walk.read(position, dst);
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                walks.remove(walk);
            }
            closeWalk(walk);
            throw e;
        }
        boolean ended;
        synchronized (this) {
            walk.busy = false;
            walk.next = position + n;
            walk.lastUsedNanos = System.nanoTime();
            ended = closed || n < wanted;
            if (ended) {
                walks.remove(walk);
            }
        }
        if (ended) {
            closeWalk(walk);
        }
        return n;
    }

    /** Closes every walk that no read is using; a walk in use closes when its read returns. Idempotent. */
    void close() {
        List<Walk> idle = new ArrayList<>();
        synchronized (this) {
            closed = true;
            for (Iterator<Walk> it = walks.iterator(); it.hasNext(); ) {
                Walk walk = it.next();
                if (!walk.busy) {
                    it.remove();
                    idle.add(walk);
                }
            }
        }
        idle.forEach(this::closeWalk);
        if (budget != null) {
            budget.forgetWalks(this);
        }
    }

    /** Walks this stream holds now. */
    synchronized int openWalks() {
        return walks.size();
    }

    /**
     * Closes one walk that no read has used for {@value #IDLE_WALK_MILLIS} ms, for a walk elsewhere.
     *
     * @return whether one was closed
     */
    boolean closeIdleWalk() {
        Walk idle = null;
        long now = System.nanoTime();
        synchronized (this) {
            for (Walk walk : walks) {
                if (!walk.busy && now - walk.lastUsedNanos >= IDLE_WALK_MILLIS * 1_000_000L) {
                    idle = walk;
                    break;
                }
            }
            if (idle == null) {
                return false;
            }
            walks.remove(idle);
        }
        closeWalk(idle);
        return true;
    }

    /** A walk that {@code position} continues and no read is using, marked busy; {@code null} if none. */
    private Walk continuedWalk(long position) {
        for (Walk walk : walks) {
            if (!walk.busy && ReadPolicy.continues(walk.next, position)) {
                walk.busy = true;
                return walk;
            }
        }
        return null;
    }

    /** The reads in a row that ended where {@code position} continues (that entry is taken), 0 if none. */
    private int chainEndingAt(long position) {
        for (int i = 0; i < RECENT_READS; i++) {
            if (ReadPolicy.continues(recentEnds[i], position)) {
                recentEnds[i] = -1;
                return recentChains[i];
            }
        }
        return 0;
    }

    private void remember(long end, int chain) {
        recentEnds[nextRecent] = end;
        recentChains[nextRecent] = chain;
        nextRecent = (nextRecent + 1) % RECENT_READS;
    }

    /** A new walk from {@code position}, busy, if the stream and the budget have room for it; else {@code null}. */
    private Walk openWalk(long position) {
        if (budget == null) {
            return null;
        }
        synchronized (this) {
            if (closed || walks.size() >= MAX_WALKS) {
                return null;
            }
        }
        // Outside this stream's lock: the budget may close an idle walk of another stream.
        if (!budget.tryOpenWalk(this)) {
            return null;
        }
        boolean streamClosed;
        synchronized (this) {
            if (!closed && walks.size() < MAX_WALKS) {
                Walk walk = new Walk(position);
                walks.add(walk);
                return walk;
            }
            streamClosed = closed;
        }
        budget.walkClosed();
        if (streamClosed) {
            budget.forgetWalks(this);
        }
        return null;
    }

    private void closeWalk(Walk walk) {
        walk.reader.close();
        budget.walkClosed();
    }
}
