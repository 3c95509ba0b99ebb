package dev.flinks3.bench.fsbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.fsbench.workloads.FsWorkload;
import dev.flinks3.bench.fsbench.workloads.PatternData;
import dev.flinks3.bench.fsbench.workloads.WorkloadContext;
import dev.flinks3.bench.fsbench.workloads.WorkloadSizes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.flink.core.fs.local.LocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The JIT warm-up against Flink's local filesystem: how many operations each workload's tasks do. */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class JitWarmUpTest {

    /** The sizes fsbench's contenders warm up with by default. */
    private static final WorkloadSizes SIZES = WorkloadSizes.defaults().jitWarmUp();

    @TempDir
    Path work;

    private WorkloadContext context() {
        return new WorkloadContext(
                LocalFileSystem.getSharedInstance(),
                new org.apache.flink.core.fs.Path(work.resolve("bucket").toUri()),
                new PatternData(),
                SIZES,
                work.resolve("local"));
    }

    @Test
    void positionalWorkloadsSendTheirFiveThousandReadsTogetherAndTheRestRunOnce() {
        WorkloadContext context = context();
        ByteArrayOutputStream log = new ByteArrayOutputStream();

        Map<FsWorkload, Long> operations = JitWarmUp.run(
                List.of(FsWorkload.POSITIONAL_READS, FsWorkload.POSITIONAL_SCAN, FsWorkload.SEQUENTIAL_READ),
                context,
                new PrintStream(log, true, StandardCharsets.UTF_8));

        assertThat(log.toString(StandardCharsets.UTF_8))
                .as("nothing failed or read wrong bytes")
                .isEmpty();
        assertThat(operations)
                .containsEntry(FsWorkload.POSITIONAL_READS, (long) WorkloadSizes.JIT_WARM_UP_POSITIONAL_READS)
                .containsEntry(FsWorkload.POSITIONAL_SCAN, (long) WorkloadSizes.JIT_WARM_UP_POSITIONAL_READS)
                .containsEntry(FsWorkload.SEQUENTIAL_READ, 1L);
    }

    @Test
    void aFailingWorkloadIsLoggedAndTheNextStillRuns() throws Exception {
        WorkloadContext context = context();
        // a file where the stream file's directory would go: the sequential read's set-up cannot write it
        assertThat(work.resolve("bucket").toFile().mkdirs()).isTrue();
        Files.write(work.resolve("bucket/stream"), new byte[1]);
        ByteArrayOutputStream log = new ByteArrayOutputStream();

        Map<FsWorkload, Long> operations = JitWarmUp.run(
                List.of(FsWorkload.SEQUENTIAL_READ, FsWorkload.SMALL_FILES),
                context,
                new PrintStream(log, true, StandardCharsets.UTF_8));

        assertThat(log.toString(StandardCharsets.UTF_8)).contains("JIT warm-up of SEQUENTIAL_READ failed");
        assertThat(operations)
                .doesNotContainKey(FsWorkload.SEQUENTIAL_READ)
                .containsEntry(FsWorkload.SMALL_FILES, (long) SIZES.smallFiles());
    }

    @Test
    void passesRepeatOnFreshPathsUntilAPassCompilesLittle() {
        // 10 s of compilation in each of the first two passes, none in the third
        long[] compiled = {0};
        int[] reads = {0};
        LongSupplier clock = () -> {
            reads[0]++;
            if (reads[0] % 2 == 0 && reads[0] <= 4) {
                compiled[0] += 10_000;
            }
            return compiled[0];
        };
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        List<org.apache.flink.core.fs.Path> roots = new ArrayList<>();

        JitWarmUp.Passes passes = JitWarmUp.untilQuiet(
                List.of(FsWorkload.SEQUENTIAL_READ),
                pass -> {
                    WorkloadContext context = context(pass);
                    roots.add(context.root());
                    return context;
                },
                new PrintStream(log, true, StandardCharsets.UTF_8),
                clock);

        assertThat(passes.passes()).isEqualTo(3);
        assertThat(passes.quiet()).isTrue();
        assertThat(passes.operations()).containsEntry(FsWorkload.SEQUENTIAL_READ, 1L);
        assertThat(roots).hasSize(3).doesNotHaveDuplicates();
        assertThat(roots)
                .allSatisfy(root -> assertThat(Path.of(root.toUri()))
                        .as("a pass deletes what it wrote")
                        .doesNotExist());
        assertThat(log.toString(StandardCharsets.UTF_8))
                .contains("JIT warm-up pass 1: ", " ms, 10000 ms of compilation\n")
                .contains("JIT warm-up pass 3: ", " ms, 0 ms of compilation (quiet)");
    }

    @Test
    void aJitThatNeverQuietsStopsAfterTheLastPass() {
        long[] compiled = {0};
        LongSupplier clock = () -> compiled[0] += 10_000;
        ByteArrayOutputStream log = new ByteArrayOutputStream();

        JitWarmUp.Passes passes = JitWarmUp.untilQuiet(
                List.of(FsWorkload.SEQUENTIAL_READ),
                this::context,
                new PrintStream(log, true, StandardCharsets.UTF_8),
                clock);

        assertThat(passes.passes()).isEqualTo(JitWarmUp.MAX_PASSES);
        assertThat(passes.quiet()).isFalse();
        assertThat(log.toString(StandardCharsets.UTF_8)).doesNotContain("(quiet)");
    }

    @Test
    void withoutACompilationClockOnePassRuns() {
        JitWarmUp.Passes passes = JitWarmUp.untilQuiet(
                List.of(FsWorkload.SEQUENTIAL_READ), this::context, new PrintStream(new ByteArrayOutputStream()), null);

        assertThat(passes.passes()).isEqualTo(1);
        assertThat(passes.quiet()).isFalse();
    }

    private WorkloadContext context(int pass) {
        return new WorkloadContext(
                LocalFileSystem.getSharedInstance(),
                new org.apache.flink.core.fs.Path(
                        work.resolve("bucket").resolve("pass-" + pass).toUri()),
                new PatternData(),
                SIZES,
                work.resolve("local-" + pass));
    }
}
