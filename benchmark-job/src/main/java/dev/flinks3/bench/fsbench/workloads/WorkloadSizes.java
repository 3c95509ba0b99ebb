package dev.flinks3.bench.fsbench.workloads;

import java.util.List;

/**
 * How big each workload is. The defaults are sized like a large checkpoint and restore: a 512 MiB stream
 * written in 64 KiB writes, four such streams at once, 300 small files of 64 KiB, 500 positional reads
 * of 16 KiB, 16 files of 32 MiB downloaded (8 threads where the plugin cannot copy paths itself) and a
 * recursive delete of 1,000 objects, and 64 MiB written to a recoverable stream before its {@code persist()}; the
 * positional scan goes on for {@value #DEFAULT_SCAN_SECONDS} s (at least 500 reads).
 *
 * @param streamBytes length of each checkpoint-like stream in bytes
 * @param writeBytes length of each {@code write} call on a stream in bytes
 * @param concurrentStreams streams written at once in {@link FsWorkload#CONCURRENT_STREAMS}
 * @param smallFiles number of small files
 * @param smallFileBytes length of each small file in bytes
 * @param positionalReads number of positional reads
 * @param positionalReadBytes length of each positional read in bytes
 * @param restoreFiles number of files downloaded
 * @param restoreFileBytes length of each downloaded file in bytes
 * @param restoreThreads threads of {@code open} and read when the plugin has no bulk copy
 * @param deleteObjects objects under the prefix deleted recursively
 * @param deleteObjectBytes length of each of those objects in bytes
 * @param persistBytes bytes written to the recoverable stream before {@code persist()}
 * @param streamSchemes the URI schemes of the {@link FsWorkload#CONCURRENT_STREAMS} streams, taken in
 *     turn (stream {@code i} uses scheme {@code i % size}), so that one process writes through
 *     {@code s3://} and {@code s3a://} at once; empty (the default) for the root's own scheme, and
 *     {@code null} (a results file written before this field) means that too
 * @param scanSeconds how long {@link FsWorkload#POSITIONAL_SCAN} goes on reading, in s, once it has made its
 *     {@code positionalReads} reads (walking the file again from its start where it ends): a scan of a few
 *     thousand reads is over in 0.05 s on a LAN, too short to time; 0 (also a results file written before this
 *     field) for exactly {@code positionalReads} reads
 */
public record WorkloadSizes(
        long streamBytes,
        int writeBytes,
        int concurrentStreams,
        int smallFiles,
        int smallFileBytes,
        int positionalReads,
        int positionalReadBytes,
        int restoreFiles,
        long restoreFileBytes,
        int restoreThreads,
        int deleteObjects,
        int deleteObjectBytes,
        long persistBytes,
        List<String> streamSchemes,
        int scanSeconds) {

    private static final int KIB = 1024;
    private static final long MIB = 1024L * 1024;

    /**
     * The most bytes one contender's round leaves on the server before its bucket is dropped, in bytes: an
     * upper bound over every workload's objects.
     */
    public long storedBytesPerRound() {
        return streamBytes * (2L + concurrentStreams)
                + (long) smallFiles * smallFileBytes
                + (long) positionalReadBytes * positionalReads
                + restoreFiles * restoreFileBytes
                + (long) deleteObjects * deleteObjectBytes
                + persistBytes;
    }

    /** The largest write or read a contender is handed in one call, in bytes (see {@link PatternData}). */
    public static final int MAX_CALL_BYTES = 4 * 1024 * 1024;

    /** How long the positional scan reads unless told otherwise, in s. */
    public static final int DEFAULT_SCAN_SECONDS = 3;

    /** The schemes of the concurrent streams unless told otherwise: none, the root's own. */
    public static final List<String> DEFAULT_STREAM_SCHEMES = List.of();

    /** Sizes whose concurrent streams all use the root's scheme, with a scan of exactly {@code positionalReads}. */
    public WorkloadSizes(
            long streamBytes,
            int writeBytes,
            int concurrentStreams,
            int smallFiles,
            int smallFileBytes,
            int positionalReads,
            int positionalReadBytes,
            int restoreFiles,
            long restoreFileBytes,
            int restoreThreads,
            int deleteObjects,
            int deleteObjectBytes,
            long persistBytes) {
        this(
                streamBytes,
                writeBytes,
                concurrentStreams,
                smallFiles,
                smallFileBytes,
                positionalReads,
                positionalReadBytes,
                restoreFiles,
                restoreFileBytes,
                restoreThreads,
                deleteObjects,
                deleteObjectBytes,
                persistBytes,
                DEFAULT_STREAM_SCHEMES,
                0);
    }

    /** The scheme of concurrent stream {@code index} (0-based), or {@code null} for the root's own. */
    public String streamScheme(int index) {
        return streamSchemes.isEmpty() ? null : streamSchemes.get(index % streamSchemes.size());
    }

    public WorkloadSizes {
        streamSchemes = streamSchemes == null ? DEFAULT_STREAM_SCHEMES : List.copyOf(streamSchemes);
        for (String scheme : streamSchemes) {
            if (!scheme.matches("[a-z][a-z0-9+.-]*")) {
                throw new IllegalArgumentException(
                        "stream scheme '" + scheme + "' is not a URI scheme (lower-case letters, digits, + . -)");
            }
        }
        positive("streamBytes", streamBytes);
        positive("writeBytes", writeBytes);
        positive("concurrentStreams", concurrentStreams);
        positive("smallFiles", smallFiles);
        positive("smallFileBytes", smallFileBytes);
        positive("positionalReads", positionalReads);
        positive("positionalReadBytes", positionalReadBytes);
        positive("restoreFiles", restoreFiles);
        positive("restoreFileBytes", restoreFileBytes);
        positive("restoreThreads", restoreThreads);
        positive("deleteObjects", deleteObjects);
        positive("deleteObjectBytes", deleteObjectBytes);
        positive("persistBytes", persistBytes);
        if (scanSeconds < 0) {
            throw new IllegalArgumentException("scanSeconds must be >= 0, was " + scanSeconds);
        }
        if (writeBytes > MAX_CALL_BYTES
                || smallFileBytes > MAX_CALL_BYTES
                || positionalReadBytes > MAX_CALL_BYTES
                || deleteObjectBytes > MAX_CALL_BYTES) {
            throw new IllegalArgumentException(
                    "writes, small files, positional reads and deleted objects must be at most " + MAX_CALL_BYTES
                            + " bytes each");
        }
        if (positionalReadBytes > streamBytes) {
            throw new IllegalArgumentException("positionalReadBytes (" + positionalReadBytes
                    + ") must not exceed streamBytes (" + streamBytes + ")");
        }
    }

    /** The default sizes, listed above. */
    public static WorkloadSizes defaults() {
        return new WorkloadSizes(
                512 * MIB,
                64 * KIB,
                4,
                300,
                64 * KIB,
                500,
                16 * KIB,
                16,
                32 * MIB,
                8,
                1_000,
                KIB,
                64 * MIB,
                DEFAULT_STREAM_SCHEMES,
                DEFAULT_SCAN_SECONDS);
    }

    /**
     * Positional reads of the JIT warm-up in all, whatever the measured run's count: HotSpot compiles a
     * method with its optimizing compiler (C2) after about 5,000 calls (its {@code Tier4InvocationThreshold}),
     * so the methods called once per GET are compiled only after that many GETs. Fewer warm-up reads
     * measure a client's interpreted request path, which is longest on the clients with the most code per
     * request, and which a TaskManager serving state reads for minutes has long left behind.
     */
    public static final int JIT_WARM_UP_POSITIONAL_READS = 5_000;

    /**
     * Readers at once that share {@link #JIT_WARM_UP_POSITIONAL_READS}, so that on a profile with tens of ms
     * per request the warm-up takes seconds, not minutes.
     */
    public static final int JIT_WARM_UP_READERS = 8;

    /**
     * Small sizes that touch every code path of a contender and the server once (connection pools, bucket
     * directories) without measuring anything.
     */
    public WorkloadSizes warmUp() {
        return small(Math.min(positionalReads, 20));
    }

    /**
     * The sizes of a contender's JIT warm-up before its measured run: {@link #warmUp()}'s, with the positional
     * reads of one of {@value #JIT_WARM_UP_READERS} readers that together send {@value
     * #JIT_WARM_UP_POSITIONAL_READS} GETs.
     */
    public WorkloadSizes jitWarmUp() {
        return small(JIT_WARM_UP_POSITIONAL_READS / JIT_WARM_UP_READERS);
    }

    /** {@link #warmUp()}'s small sizes with {@code reads} positional reads (a scan of exactly that many). */
    private WorkloadSizes small(int reads) {
        return new WorkloadSizes(
                Math.min(streamBytes, 8 * MIB),
                writeBytes,
                Math.min(concurrentStreams, 2),
                Math.min(smallFiles, 10),
                smallFileBytes,
                reads,
                positionalReadBytes,
                Math.min(restoreFiles, 2),
                Math.min(restoreFileBytes, 2 * MIB),
                restoreThreads,
                Math.min(deleteObjects, 20),
                deleteObjectBytes,
                Math.min(persistBytes, 8 * MIB),
                streamSchemes,
                0);
    }

    private static void positive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }
}
