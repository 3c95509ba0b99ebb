package dev.flinks3.k8s;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs a program with no input and captures its exit code and output. */
final class Command {

    record Result(int exitCode, String stdout, String stderr) {}

    private Command() {}

    /**
     * @param environment the program's whole environment, or {@code null} for this JVM's
     * @throws IllegalStateException if the program runs longer than {@code timeoutSeconds}
     * @throws UncheckedIOException if the program cannot be started
     */
    static Result run(List<String> command, Map<String, String> environment, long timeoutSeconds) {
        ProcessBuilder builder = new ProcessBuilder(command);
        if (environment != null) {
            builder.environment().clear();
            builder.environment().putAll(environment);
        }
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            // Read both streams while the program runs: a full pipe would stop it.
            CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
            CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(
                        String.join(" ", command) + " did not finish within " + timeoutSeconds + " s");
            }
            return new Result(process.exitValue(), stdout.join(), stderr.join());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + String.join(" ", command), e);
        }
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
