package dev.flinks3.bench.fsbench.workloads;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.ByteBufferReadable;
import org.apache.flink.core.fs.FSDataInputStream;

/**
 * Reads of {@link WorkloadSizes#positionalReadBytes()} at random offsets of the single stream's
 * file on one open stream, as disaggregated state (ForSt) reads its files: through
 * {@link ByteBufferReadable#read(long, ByteBuffer)} into a direct buffer where the stream offers it (ForSt reads
 * every block into a direct buffer), otherwise {@code seek} + read into an array (always the latter when built for
 * {@link FsWorkload#SEEK_READS}). The offsets come
 * from a fixed seed, so every contender reads the same ranges; for {@link FsWorkload#POSITIONAL_SCAN}
 * they walk through the file from its start instead, each read where the one before ended (and from the
 * start again where the file ends), {@link WorkloadSizes#positionalReads()} reads and then more until {@link
 * WorkloadSizes#scanSeconds()} have passed. Every read is checked against the file's bytes.
 */
final class PositionalReads implements WorkloadTask {

    private static final long OFFSET_SEED = 42;

    private final WorkloadContext context;
    private final PatternFiles files;
    /** The random reads' offsets, or {@code null} for a walk. */
    private final long[] offsets;

    private final boolean positionalIfOffered;
    private String method = "not run";
    private String problem = "not run";

    /**
     * @param positionalIfOffered whether to read through {@link ByteBufferReadable} where the stream offers it
     *     ({@code false}: {@code seek} + read on every stream)
     * @param walk whether the reads walk through the file from its start ({@code false}: random offsets)
     */
    PositionalReads(WorkloadContext context, boolean positionalIfOffered, boolean walk) {
        this.context = context;
        this.positionalIfOffered = positionalIfOffered;
        this.files = new PatternFiles(context.fs(), context.data());
        WorkloadSizes sizes = context.sizes();
        SplittableRandom random = new SplittableRandom(OFFSET_SEED);
        long bound = sizes.streamBytes() - sizes.positionalReadBytes() + 1;
        this.offsets =
                walk ? null : random.longs(sizes.positionalReads(), 0, bound).toArray();
    }

    @Override
    public String method() {
        return method;
    }

    @Override
    public void prepare() throws Exception {
        files.ensureStreamFile(context);
    }

    @Override
    public Outcome run() throws Exception {
        WorkloadSizes sizes = context.sizes();
        int length = sizes.positionalReadBytes();
        long readsPerPass = Math.max(1, sizes.streamBytes() / length);
        int minimumReads = offsets == null ? sizes.positionalReads() : offsets.length;
        long scanNanos = offsets == null ? TimeUnit.SECONDS.toNanos(sizes.scanSeconds()) : 0;
        byte[] bytes = new byte[length];
        ByteBuffer buffer = ByteBuffer.allocateDirect(length);
        String firstProblem = "";
        long reads = 0;
        // Once, not per read: making a Flink Path parses a URI, which took a fifth of a scan's CPU per 16 KiB read.
        String file = context.streamFile().toString();
        long start = System.nanoTime();
        try (FSDataInputStream in = context.fs().open(context.streamFile())) {
            boolean positional = positionalIfOffered && in instanceof ByteBufferReadable;
            method = positional ? "ByteBufferReadable.read(position, direct buffer)" : "seek + read";
            for (; reads < minimumReads || System.nanoTime() - start < scanNanos; reads++) {
                long offset = offsets == null ? (reads % readsPerPass) * length : offsets[(int) reads];
                if (positional) {
                    buffer.clear();
                    readFully((ByteBufferReadable) in, offset, buffer);
                    buffer.get(0, bytes);
                } else {
                    in.seek(offset);
                    readFully(in, bytes);
                }
                ContentCheck check =
                        new ContentCheck(context.data(), WorkloadContext.STREAM_SEED, file + "@" + offset, offset);
                check.update(bytes, 0, length);
                if (firstProblem.isEmpty()) {
                    firstProblem = check.result(length);
                }
            }
        }
        problem = firstProblem;
        return new Outcome(reads * length, reads);
    }

    @Override
    public String verify() {
        return problem;
    }

    /**
     * Fills the buffer from {@code position} on. Counts what each call returns rather than trusting
     * the buffer's position: Flink's {@code HadoopDataInputStream} (presto and hadoop plugins) fills a
     * heap buffer with {@code readFully} and returns its length without advancing the position.
     */
    private static void readFully(ByteBufferReadable in, long position, ByteBuffer buffer) throws IOException {
        int done = 0;
        int length = buffer.remaining();
        while (done < length) {
            int before = buffer.position();
            int read = in.read(position + done, buffer);
            if (read < 0) {
                throw new EOFException("end of file at " + (position + done));
            }
            if (read == 0) {
                throw new IOException("read(position, buffer) returned 0 bytes at " + (position + done));
            }
            if (buffer.position() == before) {
                buffer.position(before + read);
            }
            done += read;
        }
    }

    private static void readFully(FSDataInputStream in, byte[] bytes) throws IOException {
        int done = 0;
        while (done < bytes.length) {
            int read = in.read(bytes, done, bytes.length - done);
            if (read < 0) {
                throw new EOFException("end of file after " + done + " of " + bytes.length + " bytes");
            }
            done += read;
        }
    }
}
