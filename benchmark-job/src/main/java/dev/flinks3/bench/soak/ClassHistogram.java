package dev.flinks3.bench.soak;

import dev.flinks3.bench.checkpoint.run.RunEvents;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The top of a JVM's live-object class histogram ({@code jcmd <pid> GC.class_histogram}, which collects first),
 * written at moments of a soak so a heap that grew can be attributed to the classes that grew.
 */
final class ClassHistogram {

    private static final int LINES = 40;

    private ClassHistogram() {}

    /**
     * Writes the top {@value #LINES} lines of process {@code pid}'s histogram to {@code file}; a failure is one line
     * of the run, not an error.
     */
    static void write(Path file, long pid, RunEvents events) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.class_histogram")
                    .redirectErrorStream(true)
                    .start();
            List<String> lines = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .limit(LINES)
                    .toList();
            process.waitFor(1, TimeUnit.MINUTES);
            Files.write(file, lines);
        } catch (IOException e) {
            events.line("no class histogram (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
