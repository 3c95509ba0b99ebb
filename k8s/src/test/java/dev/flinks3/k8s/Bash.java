package dev.flinks3.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a script of the module with bash, as the README does, and captures its outcome. */
final class Bash {

    record Result(int exitCode, String stdout, String stderr) {}

    private static final long TIMEOUT_SECONDS = 30;

    private Bash() {}

    /**
     * @param environment variables added to a minimal environment (PATH and HOME are kept)
     * @throws IllegalStateException if the script runs longer than 30 s
     */
    static Result run(Map<String, String> environment, Path script, String... args) {
        List<String> bashArgs = new ArrayList<>(List.of(script.toString()));
        bashArgs.addAll(List.of(args));
        return bash(environment, bashArgs);
    }

    /** {@code bash -n}: parses the script without running it. */
    static Result syntaxCheck(Path script) {
        return bash(Map.of(), List.of("-n", script.toString()));
    }

    private static Result bash(Map<String, String> environment, List<String> bashArgs) {
        List<String> command = new ArrayList<>(List.of("bash"));
        command.addAll(bashArgs);
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = builder.environment();
        env.keySet().retainAll(List.of("PATH", "HOME"));
        env.putAll(environment);
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(command + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
            return new Result(process.exitValue(),
                    new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                    new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
