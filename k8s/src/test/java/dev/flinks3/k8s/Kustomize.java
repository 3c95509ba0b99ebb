package dev.flinks3.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;

/**
 * Renders a kustomization with the real kustomize, as {@code kubectl apply -k} does before it sends the
 * objects: {@code kubectl kustomize <dir>}, or the standalone {@code kustomize build <dir>} where there is no
 * kubectl. The manifests use components, replacements with {@code create} and patches with
 * {@code allowNameChange}, which need kustomize 5 (kubectl 1.27 or newer; kubectl prints the kustomize it
 * carries from 1.24 on). Where neither tool is found, or only an older one, {@link #build} aborts the calling
 * test through a JUnit assumption whose message says what was found, and prints that reason once.
 */
final class Kustomize {

    /** The oldest kustomize whose output the tests trust; see the class comment. */
    static final int MINIMUM_MAJOR_VERSION = 5;

    private static final Pattern VERSION = Pattern.compile("v(\\d+)\\.(\\d+)\\.(\\d+)");
    private static final long TIMEOUT_SECONDS = 60;
    private static final Map<Path, List<ObjectNode>> RENDERED = new ConcurrentHashMap<>();
    private static volatile Tool tool;

    private Kustomize() {}

    /**
     * What {@code kubectl kustomize dir} prints, one tree per object, in kustomize's order. A render of the
     * module's own manifests is done once per test JVM; each call gets its own copies.
     *
     * @throws org.opentest4j.TestAbortedException if no kustomize 5 is installed
     * @throws IllegalStateException if kustomize rejects the kustomization (its message included)
     */
    static List<ObjectNode> build(Path dir) {
        Path normalized = dir.toAbsolutePath().normalize();
        List<ObjectNode> objects = normalized.startsWith(ModuleFiles.MANIFESTS)
                ? RENDERED.computeIfAbsent(normalized, Kustomize::render)
                : render(normalized);
        return objects.stream().map(ObjectNode::deepCopy).collect(Collectors.toList());
    }

    /** The tool the tests render with, e.g. {@code kubectl v1.32.4 (kustomize v5.5.0)}, or why there is none. */
    static String describe() {
        Tool found = tool();
        return found.command == null ? "none: " + found.unavailable : found.description;
    }

    private static List<ObjectNode> render(Path dir) {
        Tool found = tool();
        Assumptions.assumeTrue(found.command != null, () -> "k8s rendering tests skipped: " + found.unavailable);
        List<String> command = new ArrayList<>(found.command);
        command.add(dir.toString());
        Command.Result output = run(command);
        if (output.exitCode() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed (exit code " + output.exitCode()
                    + "): " + output.stderr().trim());
        }
        return Yaml.documents(output.stdout(), String.join(" ", command));
    }

    private static Tool tool() {
        Tool found = tool;
        if (found == null) {
            synchronized (Kustomize.class) {
                if (tool == null) {
                    tool = find();
                    System.err.println("k8s tests render the manifests with: " + describe());
                }
                found = tool;
            }
        }
        return found;
    }

    private static Tool find() {
        List<String> seen = new ArrayList<>();
        Optional<Path> kubectl = onPath("kubectl");
        if (kubectl.isPresent()) {
            Command.Result version = run(List.of(kubectl.get().toString(), "version", "--client", "-o", "json"));
            JsonNode versions =
                    version.exitCode() == 0 ? Yaml.jsonOrMissing(version.stdout()) : MissingNode.getInstance();
            String kubectlVersion =
                    versions.path("clientVersion").path("gitVersion").asText("of unknown version");
            String kustomizeVersion = versions.path("kustomizeVersion").asText("");
            if (isRecentEnough(kustomizeVersion)) {
                return Tool.of(
                        List.of(kubectl.get().toString(), "kustomize"),
                        "kubectl " + kubectlVersion + " (kustomize " + kustomizeVersion + ")");
            }
            seen.add(kubectl.get() + " " + kubectlVersion + " carries "
                    + (kustomizeVersion.isEmpty() ? "a kustomize older than v4.5 (it prints none)" : kustomizeVersion));
        }
        Optional<Path> kustomize = onPath("kustomize");
        if (kustomize.isPresent()) {
            Command.Result version = run(List.of(kustomize.get().toString(), "version"));
            Matcher matcher = VERSION.matcher(version.stdout());
            String kustomizeVersion = matcher.find() ? matcher.group() : "of unknown version";
            if (isRecentEnough(kustomizeVersion)) {
                return Tool.of(List.of(kustomize.get().toString(), "build"), "kustomize " + kustomizeVersion);
            }
            seen.add(kustomize.get() + " is " + kustomizeVersion);
        }
        String found = seen.isEmpty() ? "neither kubectl nor kustomize is on the PATH" : String.join("; ", seen);
        return Tool.unavailable(found + "; the manifests need kustomize v" + MINIMUM_MAJOR_VERSION
                + " or newer (kubectl 1.27+, or a standalone kustomize 5)");
    }

    private static boolean isRecentEnough(String version) {
        Matcher matcher = VERSION.matcher(version);
        return matcher.find() && Integer.parseInt(matcher.group(1)) >= MINIMUM_MAJOR_VERSION;
    }

    private static Optional<Path> onPath(String name) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static Command.Result run(List<String> command) {
        return Command.run(command, null, TIMEOUT_SECONDS);
    }

    /** A render command, or the reason there is none. */
    private static final class Tool {
        final List<String> command;
        final String description;
        final String unavailable;

        private Tool(List<String> command, String description, String unavailable) {
            this.command = command;
            this.description = description;
            this.unavailable = unavailable;
        }

        static Tool of(List<String> command, String description) {
            return new Tool(command, description, null);
        }

        static Tool unavailable(String reason) {
            return new Tool(null, null, reason);
        }
    }
}
