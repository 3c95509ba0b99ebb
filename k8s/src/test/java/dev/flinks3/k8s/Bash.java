package dev.flinks3.k8s;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Runs a script of the module with bash, as the README does, and captures its outcome. */
final class Bash {

    private static final long TIMEOUT_SECONDS = 30;

    private Bash() {}

    /**
     * @param environment variables added to a minimal environment (PATH and HOME are kept)
     * @throws IllegalStateException if the script runs longer than 30 s
     */
    static Command.Result run(Map<String, String> environment, Path script, String... args) {
        List<String> bashArgs = new ArrayList<>(List.of(script.toString()));
        bashArgs.addAll(List.of(args));
        return bash(environment, bashArgs);
    }

    /** {@code bash -n}: parses the script without running it. */
    static Command.Result syntaxCheck(Path script) {
        return bash(Map.of(), List.of("-n", script.toString()));
    }

    private static Command.Result bash(Map<String, String> environment, List<String> bashArgs) {
        List<String> command = new ArrayList<>(List.of("bash"));
        command.addAll(bashArgs);
        Map<String, String> env = new HashMap<>();
        for (String kept : List.of("PATH", "HOME")) {
            if (System.getenv(kept) != null) {
                env.put(kept, System.getenv(kept));
            }
        }
        env.putAll(environment);
        return Command.run(command, env, TIMEOUT_SECONDS);
    }
}
