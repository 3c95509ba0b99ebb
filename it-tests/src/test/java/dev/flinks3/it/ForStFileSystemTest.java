package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import java.io.FileNotFoundException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.ByteBufferReadable;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.apache.flink.state.forst.fs.ByteBufferReadableFSDataInputStream;
import org.apache.flink.state.forst.fs.ByteBufferWritableFSDataOutputStream;
import org.apache.flink.state.forst.fs.ForStFileSystemTrackingCreatedDirDecorator;
import org.apache.flink.state.forst.fs.ForStFileSystemUtils;
import org.apache.flink.state.forst.fs.ForStFlinkFileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * What ForSt, Flink 2.x's disaggregated state backend, asks of the filesystem that holds its SST files
 * (issue 16), against the real server. Facts from {@code flink-statebackend-forst} 2.3.0:
 * {@code ForStFlinkFileSystem.open} returns a {@code ByteBufferReadableFSDataInputStream} that keeps a pool of
 * up to 32 of our input streams for one file and, for each read of a block, takes one and calls
 * {@link ByteBufferReadable#read(long, ByteBuffer)} once (seek and read only if the stream is not
 * {@code ByteBufferReadable}) from ForSt's read threads, taking that one call's count as the block's length, so
 * a positional read must fill the buffer up to its limit or the end of the object; {@code create} writes a new object under a random
 * (UUID) name in the file's directory for SST files only (everything else stays on local disk),
 * {@code rename} only renames the entry in ForSt's own mapping table, and {@code delete} deletes the object
 * once nothing references it.
 *
 * <p>So what must hold for our filesystem: concurrent positional reads on one stream from many threads, heap
 * and direct buffers filled from their position to their limit, reads at and past the end of the object, no
 * object visible while its stream is still being written, and ForSt's create/rename/delete leaving exactly
 * the objects it still references.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ForStFileSystemTest extends AbstractS3ProxyFileSystemTest {

    private static final int SIZE = 4 * MIB + 123;
    private static final int THREADS = 16;
    private static final int READS_PER_THREAD = 40;
    private static final int MAX_READ = 64 * 1024;

    /** Without directory markers, as this class's test of ForSt's probe of mkdirs asks; the rest do not mind. */
    @Override
    protected java.util.Map<String, String> options() {
        return java.util.Map.of("s3.directory-markers.enabled", "false");
    }

    /**
     * ForSt's filesystem resolves {@code s3://} paths through Flink's registry
     * ({@code FileSystem.getUnguardedFileSystem}), not through the instance it wraps: register ours there.
     */
    @BeforeAll
    void registerOurFileSystemWithFlink() throws Exception {
        FileSystem.initialize(filesystemTarget().flinkConfiguration(options()), null);
    }

    @Test
    void concurrentPositionalReadsOnOneStreamReturnEachThreadItsOwnBytes() throws Exception {
        Path path = new Path(dir, "000012.sst");
        byte[] data = randomBytes(SIZE, 21);
        write(path, data);

        try (FSDataInputStream in = fs.open(path)) {
            ByteBufferReadable positional = (ByteBufferReadable) in;
            List<String> wrong = readConcurrently(THREADS, (thread, random) -> {
                int position = random.nextInt(SIZE);
                int length = 1 + random.nextInt(MAX_READ);
                // Half the reads into direct buffers (what a native caller passes), half into heap buffers.
                ByteBuffer buffer = thread % 2 == 0 ? ByteBuffer.allocateDirect(length) : ByteBuffer.allocate(length);
                int n = readUntilFullOrEnd(positional, position, buffer);
                return check(data, position, buffer, n);
            });

            assertThat(wrong).isEmpty();
            assertThat(in.getPos())
                    .as("positional reads leave the stream's position")
                    .isZero();
        }
    }

    @Test
    void forStReadsBlocksThroughItsOwnStreamPoolWithRangedGets() throws Exception {
        ForStFlinkFileSystem forSt = forStFileSystem();
        Path sst = new Path(dir, "db/000042.sst");
        byte[] data = randomBytes(SIZE, 22);
        try (ByteBufferWritableFSDataOutputStream out = forSt.create(sst)) {
            out.write(data);
        }

        try (ByteBufferReadableFSDataInputStream in = forSt.open(sst)) {
            List<String> wrong = readConcurrently(8, (thread, random) -> {
                int position = random.nextInt(SIZE);
                int length = 1 + random.nextInt(Math.min(MAX_READ, SIZE - position));
                ByteBuffer buffer = ByteBuffer.allocateDirect(length);
                int n = in.readFully(position, buffer);
                return check(data, position, buffer, n);
            });
            assertThat(wrong).isEmpty();
        }
        List<RequestRecord> gets = requestsUnder(RequestKind.GET_OBJECT);
        assertThat(gets)
                .as("every block read is one ranged GET, never the whole object")
                .hasSizeGreaterThanOrEqualTo(8 * READS_PER_THREAD)
                .allSatisfy(get -> assertThat(get.header("Range")).isPresent());
    }

    @Test
    void heapAndDirectBuffersAreFilledFromTheirPositionUpToTheirLimit() throws Exception {
        Path path = new Path(dir, "blocks");
        byte[] data = randomBytes(SIZE, 23);
        write(path, data);
        long at = 3 * MIB + 5;

        try (FSDataInputStream in = fs.open(path)) {
            ByteBufferReadable positional = (ByteBufferReadable) in;
            // A heap buffer that is a slice of a larger array (arrayOffset 100), read into from position 10.
            ByteBuffer heap = ByteBuffer.wrap(new byte[1100], 100, 1000).slice();
            heap.position(10).limit(900);
            ByteBuffer direct = ByteBuffer.allocateDirect(1000);
            direct.position(10).limit(900);

            for (ByteBuffer buffer : List.of(heap, direct)) {
                int n = readUntilFullOrEnd(positional, at, buffer);

                assertThat(n).isEqualTo(890);
                assertThat(buffer.position()).isEqualTo(900);
                assertThat(buffer.limit()).isEqualTo(900);
                byte[] read = new byte[890];
                buffer.duplicate().position(10).get(read);
                assertThat(read).isEqualTo(Arrays.copyOfRange(data, (int) at, (int) at + 890));
                assertThat(buffer.duplicate().position(0).get())
                        .as("byte before the position untouched")
                        .isZero();
            }
            assertThat(heap.array()[99]).as("byte before the slice untouched").isZero();
        }
    }

    @Test
    void readsAtAndPastTheEndReturnMinusOneAndAReadAcrossItStopsThere() throws Exception {
        Path path = new Path(dir, "short");
        byte[] data = randomBytes(1000, 24);
        write(path, data);

        try (FSDataInputStream in = fs.open(path)) {
            ByteBufferReadable positional = (ByteBufferReadable) in;
            assertThat(positional.read(1000, ByteBuffer.allocate(10))).isEqualTo(-1);
            assertThat(positional.read(5000, ByteBuffer.allocateDirect(10))).isEqualTo(-1);

            ByteBuffer across = ByteBuffer.allocateDirect(100);
            int n = readUntilFullOrEnd(positional, 990, across);
            assertThat(n).isEqualTo(10);
            assertThat(check(data, 990, across, n)).isNull();

            in.seek(1000);
            assertThat(in.read()).isEqualTo(-1);
            assertThat(in.read(new byte[10], 0, 10)).isEqualTo(-1);
        }
    }

    @Test
    void aFileIsNotVisibleWhileAnotherStreamIsStillWritingIt() throws Exception {
        Path path = new Path(dir, "000051.sst");
        byte[] data = randomBytes(12 * MIB, 25);
        try (FSDataOutputStream out = fs.create(path, WriteMode.OVERWRITE)) {
            // More than one part: the multipart upload is under way, parts are on the server.
            out.write(data, 0, 10 * MIB);
            out.flush();

            assertThat(fs.exists(path)).isFalse();
            assertThatThrownBy(() -> fs.getFileStatus(path)).isInstanceOf(FileNotFoundException.class);
            // open() is lazy (no request until the first read); the read finds nothing.
            try (FSDataInputStream in = fs.open(path)) {
                assertThatThrownBy(in::read).isInstanceOf(FileNotFoundException.class);
            }
            out.write(data, 10 * MIB, 2 * MIB);
        }
        assertThat(readFully(path)).isEqualTo(data);
    }

    @Test
    void forStPutsOnlySstFilesOnS3UnderItsOwnNamesAndRenamesAndDeletesThemWithoutCopies() throws Exception {
        ForStFlinkFileSystem forSt = forStFileSystem();
        Path current = new Path(dir, "db/CURRENT");
        Path sst = new Path(dir, "db/000009.sst");
        Path ingested = new Path(dir, "db/000010.sst");
        byte[] data = randomBytes(200_000, 26);
        try (ByteBufferWritableFSDataOutputStream out = forSt.create(current)) {
            out.write("MANIFEST-000005\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        assertThat(objectsUnder())
                .as("ForSt keeps files other than SSTs on local disk")
                .isEmpty();

        try (ByteBufferWritableFSDataOutputStream out = forSt.create(sst)) {
            out.write(data);
        }
        List<S3Object> written = objectsUnder();
        assertThat(written)
                .as("one object, under a name of ForSt's own")
                .hasSize(1)
                .noneSatisfy(o -> assertThat(o.key()).endsWith("000009.sst"));

        assertThat(forSt.rename(sst, ingested)).isTrue();

        assertThat(forSt.exists(ingested)).isTrue();
        assertThat(forSt.exists(sst)).isFalse();
        try (ByteBufferReadableFSDataInputStream in = forSt.open(ingested)) {
            ByteBuffer buffer = ByteBuffer.allocateDirect(4096);
            assertThat(in.readFully(150_000, buffer)).isEqualTo(4096);
            assertThat(check(data, 150_000, buffer, 4096)).isNull();
        }
        assertThat(objectsUnder()).as("a rename moves nothing on S3").isEqualTo(written);
        assertThat(requestsUnder(RequestKind.COPY_OBJECT)).isEmpty();

        assertThat(forSt.delete(ingested, false)).isTrue();

        assertThat(forSt.exists(ingested)).isFalse();
        assertThat(objectsUnder())
                .as("the object goes with ForSt's last reference")
                .isEmpty();
    }

    @Test
    void anSstFileForStClosedMayStillBeFlushedAndSynced() throws Exception {
        // ForSt's native side flushes a file after closing it (flink-s3-fs-native 2.3.0 throws "Stream is
        // closed" there, and ForSt's flush of its first SST file fails the checkpoint).
        ForStFlinkFileSystem forSt = forStFileSystem();
        Path sst = new Path(dir, "db/000011.sst");
        byte[] data = randomBytes(10_000, 27);
        ByteBufferWritableFSDataOutputStream out = forSt.create(sst);
        // ForSt writes from native memory: direct buffers.
        out.write(ByteBuffer.allocateDirect(data.length).put(data).flip());
        out.close();

        out.flush();
        out.sync();

        try (ByteBufferReadableFSDataInputStream in = forSt.open(sst)) {
            ByteBuffer buffer = ByteBuffer.allocateDirect(data.length);
            assertThat(in.readFully(0, buffer)).isEqualTo(data.length);
            assertThat(check(data, 0, buffer, data.length)).isNull();
        }
    }

    @Test
    void aRenameOntoAnExistingFileSucceedsOnceTheTargetIsDeleted() throws Exception {
        // How ForSt renamed before its mapping table, and how it still renames files it does not map.
        Path source = new Path(dir, "OPTIONS-000007.dbtmp");
        Path target = new Path(dir, "OPTIONS-000007");
        write(source, "new".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        write(target, "old".getBytes(java.nio.charset.StandardCharsets.US_ASCII));

        assertThat(fs.rename(source, target))
                .as("no rename over an existing file")
                .isFalse();
        assertThat(fs.delete(target, false)).isTrue();
        assertThat(fs.rename(source, target)).isTrue();

        assertThat(fs.exists(source)).isFalse();
        assertThat(new String(readFully(target), java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo("new");
    }

    @Test
    void withoutMarkersForStKeepsOneFileSystemObjectAndChecksItsOwnDirectoriesWithoutRequests() throws Exception {
        // ForSt (ForStFileSystemUtils.tryDecorate, 2.3.0) makes a probe directory and asks exists() of it. When
        // exists() says no, it answers for the directories it makes through a second ForStFlinkFileSystem that
        // shares the first one's file-mapping table (a HashMap) but synchronizes on itself; its native side then
        // uses that copy while its checkpoint and restore code use the original, each under its own lock. Our
        // filesystem answers for the directories it made, so ForSt keeps its one object, and its checks of them
        // still send nothing (with directory markers, as S3A writes them, each was a HEAD and a LIST).
        ForStFlinkFileSystem undecorated = forStFileSystem();
        ForStFlinkFileSystem forSt = ForStFileSystemUtils.tryDecorate(undecorated);
        assertThat(forSt).isSameAs(undecorated).isNotInstanceOf(ForStFileSystemTrackingCreatedDirDecorator.class);

        int before = server.requestLog().entries().size();
        Path db = new Path(dir, "job/db");
        for (int i = 0; i < 6; i++) {
            assertThat(forSt.mkdirs(db)).isTrue();
        }
        for (int i = 0; i < 27; i++) {
            assertThat(forSt.exists(db)).isTrue();
        }

        assertThat(server.requestLog()
                        .entries()
                        .subList(before, server.requestLog().entries().size()))
                .as("ForSt's mkdirs and exists of its own directories")
                .isEmpty();
        assertThat(objectsUnder())
                .as("no marker, and the probe directory left nothing")
                .isEmpty();
    }

    /** ForSt's filesystem over ours, with this test's directory as the remote base and no file cache. */
    private ForStFlinkFileSystem forStFileSystem() throws Exception {
        java.nio.file.Path local = Files.createTempDirectory("forst-local");
        return new ForStFlinkFileSystem(fs, dir.toString(), local.toString(), null);
    }

    private List<S3Object> objectsUnder() {
        return s3.listObjectsV2Paginator(b -> b.bucket(target.bucket()).prefix(key(dir) + "/")).contents().stream()
                .toList();
    }

    private List<RequestRecord> requestsUnder(RequestKind kind) {
        String prefix = key(dir) + "/";
        return server.requestLog().entries(kind).stream()
                .filter(r -> r.key().startsWith(prefix))
                .toList();
    }

    /** One read of a thread; returns a description of what was wrong, or null. */
    @FunctionalInterface
    private interface Read {
        String run(int thread, SplittableRandom random) throws Exception;
    }

    /** Runs {@value #READS_PER_THREAD} reads on each of {@code threads} threads at once; what was wrong. */
    private static List<String> readConcurrently(int threads, Read read) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<String>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(1000 + thread);
                    List<String> wrong = new ArrayList<>();
                    for (int i = 0; i < READS_PER_THREAD; i++) {
                        String problem = read.run(thread, random);
                        if (problem != null) {
                            wrong.add("thread " + thread + ": " + problem);
                        }
                    }
                    return wrong;
                }));
            }
            List<String> wrong = new ArrayList<>();
            for (Future<List<String>> result : results) {
                wrong.addAll(result.get(90, TimeUnit.SECONDS));
            }
            return wrong;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Positional reads until the buffer is full or -1; the bytes read in all. */
    private static int readUntilFullOrEnd(ByteBufferReadable in, long position, ByteBuffer buffer) throws Exception {
        int total = 0;
        while (buffer.hasRemaining()) {
            int n = in.read(position + total, buffer);
            if (n < 0) {
                break;
            }
            total += n;
        }
        return total;
    }

    /** Null if the {@code n} bytes before the buffer's position are the data's at {@code position}. */
    private static String check(byte[] data, long position, ByteBuffer buffer, int n) {
        int expected = (int) Math.min(buffer.limit(), data.length - position);
        if (n != expected) {
            return n + " bytes read at " + position + ", expected " + expected;
        }
        byte[] read = new byte[n];
        buffer.duplicate().flip().get(read);
        int from = (int) position;
        return Arrays.equals(read, Arrays.copyOfRange(data, from, from + n))
                ? null
                : "wrong bytes at " + position + " (" + n + " bytes)";
    }
}
