package dev.flinks3.bench.fsbench;

import dev.flinks3.bench.common.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import jdk.jfr.Recording;

/**
 * What a contender JVM's threads spend CPU on during its timed parts: one Java Flight Recorder recording
 * from before the JIT warm-up to the JVM's end, of where threads run Java code ({@code jdk.ExecutionSample}
 * events with stack traces, one per running thread every {@link #SAMPLE_PERIOD}; time in native code, such
 * as system calls and the CRT's C code, and in the JVM itself is not sampled by that event) and of what the
 * JIT compiles and deoptimizes; and each thread group's CPU time ({@link ThreadCpu}) over each timed part,
 * which covers the JIT compilers and GC threads too. The recording starts before the warm-up because
 * starting one makes HotSpot compile again much of what it had compiled: started at a timed part of 500
 * positional reads after the warm-up, it was followed by 1,649 compilations during the part's 1.1 s; started
 * before the warm-up, by 67. Used by {@link ContenderMain} when the benchmark runs
 * with {@code --cpu-profile}; read by {@link dev.flinks3.bench.fsbench.report.CpuProfile}.
 */
final class CpuRecording implements AutoCloseable {

    /** How often each thread running Java code is sampled: 1 ms, JFR's shortest period. */
    static final Duration SAMPLE_PERIOD = Duration.ofMillis(1);

    /** The recording, or null when only thread CPU is kept ({@code --cpu-samples false}). */
    private final Recording recording;

    /**
     * A timed part: when it began and ended, and the CPU seconds of each thread group in between.
     *
     * @param from the start, an ISO-8601 instant
     * @param to the end, an ISO-8601 instant
     * @param threadSeconds CPU seconds by thread group ({@link ThreadCpu#group})
     */
    record Window(String from, String to, Map<String, Double> threadSeconds) {}

    /** A timed part under way. */
    final class Part {
        private final Instant from = Instant.now();
        private final ThreadCpu threadsAtStart = ThreadCpu.snapshot();

        private Part() {}

        /**
         * Ends the part and writes the recording so far to {@code file} (if samples are recorded) and the
         * part's {@link Window} to {@link #windowFile}.
         *
         * @param file the {@code .jfr} file written (its folder is created)
         * @throws IOException if a file cannot be written
         */
        void endAndWrite(Path file) throws IOException {
            Map<String, Double> threadSeconds = ThreadCpu.snapshot().since(threadsAtStart);
            Instant to = Instant.now();
            Files.createDirectories(file.toAbsolutePath().getParent());
            if (recording != null) {
                recording.dump(file);
            }
            Json.write(windowFile(file), new Window(from.toString(), to.toString(), threadSeconds));
        }
    }

    private CpuRecording(Recording recording) {
        this.recording = recording;
    }

    /**
     * Starts recording.
     *
     * @param samples whether to record execution samples, compilations and deoptimizations with JFR, or only each
     *     thread group's CPU over each timed part (which costs nothing measurable)
     */
    static CpuRecording start(boolean samples) {
        if (!samples) {
            return new CpuRecording(null);
        }
        Recording recording = new Recording();
        recording.setName("fsbench-contender");
        recording.enable("jdk.ExecutionSample").withPeriod(SAMPLE_PERIOD).withStackTrace();
        // what the JIT compiles and why compiled code is thrown away, every event (no threshold)
        recording.enable("jdk.Compilation").withThreshold(Duration.ZERO);
        recording.enable("jdk.Deoptimization").withoutStackTrace();
        // where heap is allocated (sampled, with stacks), for jfr print --events jdk.ObjectAllocationSample
        recording.enable("jdk.ObjectAllocationSample").withStackTrace();
        recording.setToDisk(true);
        recording.start();
        return new CpuRecording(recording);
    }

    /** Begins a timed part. */
    Part begin() {
        return new Part();
    }

    /** Where the {@link Window} of the part recorded in {@code jfr} is: {@code <jfr>.window.json}. */
    static Path windowFile(Path jfr) {
        return jfr.resolveSibling(jfr.getFileName() + ".window.json");
    }

    /** Reads a {@link Window} that {@link Part#endAndWrite} wrote. */
    static Window readWindow(Path jfr) throws IOException {
        return Json.read(windowFile(jfr), Window.class);
    }

    /** Ends the recording and frees what it holds on disk. */
    @Override
    public void close() {
        if (recording != null) {
            recording.close();
        }
    }
}
