package dev.flinks3.bench.fsbench;

import dev.flinks3.bench.common.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import jdk.jfr.Recording;

/**
 * What a contender JVM's threads spend CPU on during one timed part: a Java Flight Recorder recording of
 * where they run Java code ({@code jdk.ExecutionSample} events with stack traces, one per running thread
 * every {@link #SAMPLE_PERIOD}; time in native code, such as system calls and the CRT's C code, and in the
 * JVM itself is not sampled by that event), and each thread group's CPU time ({@link ThreadCpu}), which
 * covers the JIT compilers and GC threads too. Started by {@link ContenderMain} around a workload's timed
 * part when the benchmark runs with {@code --cpu-profile}; read by {@link
 * dev.flinks3.bench.fsbench.report.CpuProfile}.
 */
final class CpuRecording implements AutoCloseable {

    /** How often each thread running Java code is sampled: 1 ms, JFR's shortest period. */
    static final Duration SAMPLE_PERIOD = Duration.ofMillis(1);

    private final Recording recording;
    private final ThreadCpu threadsAtStart;

    private CpuRecording(Recording recording, ThreadCpu threadsAtStart) {
        this.recording = recording;
        this.threadsAtStart = threadsAtStart;
    }

    /** Starts recording execution samples of every thread. */
    static CpuRecording start() {
        Recording recording = new Recording();
        recording.setName("fsbench-timed-part");
        recording.enable("jdk.ExecutionSample").withPeriod(SAMPLE_PERIOD).withStackTrace();
        recording.setToDisk(true);
        recording.start();
        return new CpuRecording(recording, ThreadCpu.snapshot());
    }

    /**
     * Stops recording and writes what was recorded: the execution samples to {@code file} and the CPU
     * seconds per thread group to {@link #threadsFile}, a JSON object.
     *
     * @param file the {@code .jfr} file written (its folder is created)
     * @throws IOException if a file cannot be written
     */
    void stopAndWrite(Path file) throws IOException {
        Map<String, Double> threadSeconds = ThreadCpu.snapshot().since(threadsAtStart);
        recording.stop();
        Files.createDirectories(file.toAbsolutePath().getParent());
        recording.dump(file);
        Json.write(threadsFile(file), threadSeconds);
    }

    /** Where the CPU seconds per thread group of the recording {@code jfr} are: {@code <jfr>.threads.json}. */
    static Path threadsFile(Path jfr) {
        return jfr.resolveSibling(jfr.getFileName() + ".threads.json");
    }

    /** Ends the recording (if still running) and frees what it holds on disk. */
    @Override
    public void close() {
        recording.close();
    }
}
