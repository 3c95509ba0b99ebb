package dev.flinks3.bench.fsbench.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.local.LocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every workload's set-up, timed part and check against Flink's local filesystem at tiny sizes: the
 * workloads do what they say and their checks catch wrong bytes. Nothing is timed.
 */
class LocalWorkloadsTest {

    private static final int KIB = 1024;
    private static final WorkloadSizes TINY = new WorkloadSizes(
            300 * KIB + 7, 16 * KIB, 3, 5, 10 * KIB, 20, 4 * KIB, 3, 100 * KIB, 2, 12, KIB, 200 * KIB + 3);

    @TempDir
    Path work;

    private WorkloadContext context() {
        FileSystem fs = LocalFileSystem.getSharedInstance();
        org.apache.flink.core.fs.Path root =
                new org.apache.flink.core.fs.Path(work.resolve("bucket").toUri());
        return new WorkloadContext(fs, root, new PatternData(), TINY, work.resolve("local"));
    }

    @ParameterizedTest
    @EnumSource(FsWorkload.class)
    void eachWorkloadRunsAndItsBytesCheckOut(FsWorkload workload) throws Exception {
        WorkloadContext context = context();
        WorkloadTask task = WorkloadTask.of(workload, context);

        task.prepare();
        WorkloadTask.Outcome outcome = task.run();

        assertThat(task.verify()).isEmpty();
        assertThat(outcome.operations())
                .isEqualTo(
                        switch (workload) {
                            case STREAM_WRITE, SEQUENTIAL_READ -> 1L;
                            case CONCURRENT_STREAMS -> 3L;
                            case SMALL_FILES -> 5L;
                            case POSITIONAL_READS, SEEK_READS, POSITIONAL_SCAN -> 20L;
                            case RESTORE_DOWNLOAD -> 3L;
                            case RECURSIVE_DELETE -> 12L;
                            case RECOVERABLE_PERSIST -> 1L;
                        });
        assertThat(task.method()).isNotEqualTo("not run");
    }

    @ParameterizedTest
    @EnumSource(FsWorkload.class)
    void aReadWorkloadRunsTwiceOnTheSameObjectsAndLeavesThemAsTheyWere(FsWorkload workload) throws Exception {
        // fsbench runs each read workload once untimed before its timed run; the timed run must find the
        // same objects and a local folder as empty as before.
        WorkloadContext context = context();
        WorkloadTask task = WorkloadTask.of(workload, context);
        task.prepare();
        java.util.List<String> bucketBefore = tree(work.resolve("bucket"));
        java.util.List<String> localBefore = tree(work.resolve("local"));

        task.run();
        String firstCheck = task.verify();

        java.util.List<String> bucketAfter = tree(work.resolve("bucket"));
        java.util.List<String> localAfter = tree(work.resolve("local"));
        if (workload.readsOnly()) {
            assertThat(firstCheck).isEmpty();
            assertThat(bucketAfter).isEqualTo(bucketBefore);
            assertThat(localAfter).isEqualTo(localBefore);
            task.run();
            assertThat(task.verify()).isEmpty();
        } else {
            assertThat(bucketAfter)
                    .as("a workload that writes or deletes is not a read")
                    .isNotEqualTo(bucketBefore);
        }
    }

    private static java.util.List<String> tree(Path root) throws java.io.IOException {
        if (!java.nio.file.Files.exists(root)) {
            return java.util.List.of();
        }
        try (java.util.stream.Stream<Path> walk = java.nio.file.Files.walk(root)) {
            return walk.filter(java.nio.file.Files::isRegularFile)
                    .map(path -> root.relativize(path) + ":" + path.toFile().length())
                    .sorted()
                    .collect(java.util.stream.Collectors.toList());
        }
    }

    @Test
    void recoverablePersistCountsTheBytesMadeDurableAndCommitsThemAll() throws Exception {
        WorkloadTask persist = WorkloadTask.of(FsWorkload.RECOVERABLE_PERSIST, context());

        WorkloadTask.Outcome outcome = persist.run();

        assertThat(outcome.bytes()).isEqualTo(TINY.persistBytes());
        assertThat(work.resolve("bucket/persist/part-0")).doesNotExist();
        assertThat(persist.verify()).isEmpty();
        assertThat(work.resolve("bucket/persist/part-0")).hasSize(TINY.persistBytes());
    }

    @Test
    void aTimedScanGoesOnPastItsReadsAndWalksTheFileAgainFromItsStart() throws Exception {
        WorkloadSizes oneSecond = new WorkloadSizes(
                TINY.streamBytes(),
                TINY.writeBytes(),
                TINY.concurrentStreams(),
                TINY.smallFiles(),
                TINY.smallFileBytes(),
                TINY.positionalReads(),
                TINY.positionalReadBytes(),
                TINY.restoreFiles(),
                TINY.restoreFileBytes(),
                TINY.restoreThreads(),
                TINY.deleteObjects(),
                TINY.deleteObjectBytes(),
                TINY.persistBytes(),
                TINY.streamSchemes(),
                1);
        WorkloadContext context = new WorkloadContext(
                LocalFileSystem.getSharedInstance(),
                new org.apache.flink.core.fs.Path(work.resolve("bucket").toUri()),
                new PatternData(),
                oneSecond,
                work.resolve("local"));
        WorkloadTask scan = WorkloadTask.of(FsWorkload.POSITIONAL_SCAN, context);
        scan.prepare();

        WorkloadTask.Outcome outcome = scan.run();

        long readsPerPass = TINY.streamBytes() / TINY.positionalReadBytes();
        assertThat(outcome.operations()).isGreaterThan(readsPerPass);
        assertThat(outcome.bytes()).isEqualTo(outcome.operations() * TINY.positionalReadBytes());
        assertThat(scan.verify()).isEmpty();
    }

    @Test
    void recursiveDeleteLeavesNothing() throws Exception {
        WorkloadContext context = context();
        WorkloadTask delete = WorkloadTask.of(FsWorkload.RECURSIVE_DELETE, context);
        delete.prepare();
        assertThat(work.resolve("bucket/delete").toFile().list()).hasSize(12);

        delete.run();

        assertThat(work.resolve("bucket/delete")).doesNotExist();
    }

    @Test
    void aCorruptByteFailsTheSequentialAndPositionalReads() throws Exception {
        WorkloadContext context = context();
        WorkloadTask.of(FsWorkload.STREAM_WRITE, context).run();
        Path file = work.resolve("bucket/stream/one");
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            for (long position = 0; position < raw.length(); position += 512) {
                raw.seek(position);
                int value = raw.read();
                raw.seek(position);
                raw.write(value ^ 0xFF);
            }
        }
        WorkloadTask sequential = WorkloadTask.of(FsWorkload.SEQUENTIAL_READ, context);
        WorkloadTask positional = WorkloadTask.of(FsWorkload.POSITIONAL_READS, context);
        WorkloadTask seek = WorkloadTask.of(FsWorkload.SEEK_READS, context);
        sequential.run();
        positional.run();
        seek.run();

        assertThat(sequential.verify()).contains("wrong byte at position 0");
        assertThat(positional.verify()).contains("wrong byte");
        assertThat(seek.verify()).contains("wrong byte");
        assertThat(seek.method()).isEqualTo("seek + read");
    }

    @Test
    void aShortFileFailsTheCheckOfAStreamWrite() throws Exception {
        WorkloadContext context = context();
        WorkloadTask write = WorkloadTask.of(FsWorkload.STREAM_WRITE, context);
        write.run();
        try (RandomAccessFile raw =
                new RandomAccessFile(work.resolve("bucket/stream/one").toFile(), "rw")) {
            raw.setLength(raw.length() - 1);
        }

        assertThat(write.verify()).contains("expected " + TINY.streamBytes());
    }
}
