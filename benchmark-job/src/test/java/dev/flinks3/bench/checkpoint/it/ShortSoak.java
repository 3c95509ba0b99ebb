package dev.flinks3.bench.checkpoint.it;

import dev.flinks3.bench.common.Json;
import dev.flinks3.bench.soak.SoakOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * CI's short soak as {@link SoakIT} runs it and {@link SoakLeakIT} runs it with a leak injected: 140 s of the job on
 * the embedded server (lan) with every fault kind, a checkpoint every 2 s, parts of 5 MiB so each subtask's 8 MiB
 * checkpoint stream is a multipart upload, a TaskManager of the MiniCluster stopped 12 s after the last one recovered (eight or more stops), a
 * sample every second, and the {@code short} rules of docs/soak.md.
 *
 * @param process the run
 * @param soak what it found
 */
record ShortSoak(LocalModeProcess process, SoakOutcome soak) {

    /** Records the source emits: 140 s at 100 records/s. */
    static final long RECORDS = 140 * 100;

    static final List<String> ARGUMENTS = List.of(
            "--s3-profile", "lan",
            "--bucket", "soak",
            "--soak-duration", "140s",
            "--sample-interval", "1s",
            "--kill-interval", "12s",
            "--warm-up-time", "15s",
            "--s3-faults", "0.03",
            "--s3-mid-body-resets", "0.005",
            "--s3-slow-answers", "0.002",
            "--s3-slow-answer-time", "9s",
            "--attempt-timeout", "8s",
            "--rules", "short",
            "--p99-factor", "2.5",
            "--num-keys", "256",
            "--value-size-kb", "64",
            "--checkpoint-interval", "2s",
            "-D", "s3.upload.min.part.size=5mb",
            "--managed-memory", "128m",
            "--jvm-option", "-Xmx768m");

    /**
     * Runs the short soak into {@code output}.
     *
     * @param pluginJar the plugin jar to soak
     * @param jvmOptions more options of the soak's JVM (e.g. the system property of an injected leak)
     */
    static ShortSoak run(Path output, Path pluginJar, List<String> jvmOptions) throws Exception {
        List<String> arguments = new ArrayList<>(ARGUMENTS);
        if (!jvmOptions.isEmpty()) {
            // A -D would be taken for the soak's own -D option: the JVM reads them from an argument file.
            Path file = output.resolveSibling(output.getFileName() + "-jvm-options.txt");
            Files.write(file, jvmOptions);
            arguments.add("--jvm-option=@" + file.toAbsolutePath());
        }
        LocalModeProcess process = LocalModeProcess.run("soak", pluginJar, output, arguments);
        return new ShortSoak(
                process, Json.read(output.resolve("contenders").resolve("ours-soak.json"), SoakOutcome.class));
    }
}
