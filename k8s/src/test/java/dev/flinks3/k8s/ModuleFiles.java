package dev.flinks3.k8s;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Where the files under test are. Surefire runs tests in the module's folder ({@code k8s/}), so paths
 * are resolved against it; the repository root is its parent.
 */
final class ModuleFiles {

    static final Path MODULE = Path.of("").toAbsolutePath();
    static final Path REPOSITORY = MODULE.getParent();
    static final Path MANIFESTS = MODULE.resolve("manifests");
    static final Path OVERLAYS = MANIFESTS.resolve("overlays");
    static final Path SETTINGS = MANIFESTS.resolve("settings/settings.yaml");
    static final Path DOCKERFILE = MODULE.resolve("Dockerfile");
    static final Path IAM_POLICY = MODULE.resolve("aws/iam-policy.json");
    static final Path BUCKET_LIFECYCLE = MODULE.resolve("aws/bucket-lifecycle.json");
    static final Path EKS_CLUSTER = MODULE.resolve("eks/cluster.yaml");
    static final Path SCRIPTS = MODULE.resolve("scripts");
    static final Path README = MODULE.resolve("README.md");
    static final Path JMX_EXPORTER_CONFIG = MODULE.resolve("monitoring/jmx-exporter.yaml");
    static final Path POD_MONITOR = MODULE.resolve("monitoring/pod-monitor.yaml");
    static final Path ALERT_RULES = MODULE.resolve("monitoring/alert-rules.yaml");
    static final Path DASHBOARD = MODULE.resolve("monitoring/grafana-dashboard.json");

    private ModuleFiles() {}

    /** The name of every folder under manifests/overlays/, each a kustomization to apply. */
    static List<String> overlays() {
        try (Stream<Path> dirs = Files.list(OVERLAYS)) {
            return dirs.filter(Files::isDirectory)
                    .map(dir -> dir.getFileName().toString())
                    .sorted()
                    .collect(Collectors.toList());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The file's text, UTF-8. */
    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The version this build gives its artifacts (the Maven project version). */
    static String projectVersion() {
        String version = System.getProperty("flinks3.version");
        if (version == null) {
            throw new IllegalStateException("system property flinks3.version is not set (run the tests with Maven)");
        }
        return version;
    }
}
