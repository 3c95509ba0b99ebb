package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pieces a user adds to their own FlinkDeployment, rendered with the real kustomize and checked against the
 * operator's CRD: {@code components/flinks3} puts the plugin into {@code plugins/flinks3/} through an init
 * container and keeps the user's pod template (containers, mounts, volumes merged by name), on a deployment with
 * a pod template and on a bare one; {@code components/flinks3-service-account} gives the pods their identity;
 * {@code examples/flinks3-deployment} shows both with the plugin image set by kustomize's images transformer; and
 * the benchmark's flinks3 variant adds the plugin with the same component.
 */
class Flinks3ComponentTest {

    static final Path COMPONENT = ModuleFiles.MODULE.resolve("components/flinks3");
    static final Path SERVICE_ACCOUNT = ModuleFiles.MODULE.resolve("components/flinks3-service-account");
    static final Path EXAMPLE = ModuleFiles.MODULE.resolve("examples/flinks3-deployment");
    static final String PLUGIN_DIR = "/opt/flink/plugins/flinks3";
    /** Where the plugin image keeps the doctor's jar (k8s/Dockerfile, target flinks3-plugin). */
    static final String DOCTOR_JAR_IN_IMAGE = "/doctor/flinks3-doctor.jar";

    private static final CrdSchema SCHEMA = CrdSchema.flinkDeployment();

    @Test
    void theExampleKeepsTheUsersPodTemplateAndAddsThePluginTheKeysAndTheServiceAccount() {
        List<ObjectNode> objects = Kustomize.build(EXAMPLE);
        ObjectNode deployment = Variant.only(objects, "FlinkDeployment");
        JsonNode spec = deployment.path("spec");

        assertThat(SCHEMA.violations(deployment)).isEmpty();
        JsonNode pod = spec.path("podTemplate").path("spec");
        JsonNode main = container(pod.path("containers"), "flink-main-container");
        assertThat(names(main.path("env"))).as("the user's env").contains("TZ");
        assertThat(mountPaths(main)).containsExactlyInAnyOrder("/opt/flink/scratch", PLUGIN_DIR);
        assertThat(names(pod.path("volumes"))).containsExactlyInAnyOrder("scratch", "flinks3-plugin");
        JsonNode init = container(pod.path("initContainers"), "flinks3-plugin");
        assertThat(init.path("image").asText())
                .as("set by the example's images transformer")
                .isEqualTo("123456789012.dkr.ecr.eu-west-1.amazonaws.com/flinks3-plugin:0.1.0-SNAPSHOT");
        assertThat(mountPaths(init)).containsExactly(PLUGIN_DIR);
        assertThat(spec.path("flinkConfiguration")
                        .path("kubernetes.operator.pod-template.merge-arrays-by-name")
                        .asText())
                .isEqualTo("true");
        assertThat(spec.path("flinkConfiguration").path("s3.region").asText()).isEqualTo("eu-west-1");
        assertThat(spec.path("serviceAccount").asText()).isEqualTo("flinks3");
        ObjectNode account = Variant.only(objects, "ServiceAccount");
        assertThat(account.path("metadata").path("name").asText()).isEqualTo("flinks3");
        assertThat(account.path("metadata")
                        .path("annotations")
                        .path("eks.amazonaws.com/role-arn")
                        .asText())
                .startsWith("arn:aws:iam::");
        JsonNode binding = Variant.only(objects, "RoleBinding");
        assertThat(binding.path("subjects").get(0).path("namespace").asText())
                .isEqualTo(deployment.path("metadata").path("namespace").asText());
    }

    @Test
    void onABareDeploymentTheComponentAddsAPodTemplateOfItsOwn(@TempDir Path dir) throws IOException {
        Files.writeString(
                dir.resolve("flink-deployment.yaml"),
                "apiVersion: flink.apache.org/v1beta1\nkind: FlinkDeployment\nmetadata:\n  name: bare\nspec:\n"
                        + "  image: flink:2.3-java17\n  flinkVersion: v2_2\n  jobManager:\n    resource: {memory: 1024m, cpu: 1}\n"
                        + "  taskManager:\n    resource: {memory: 1024m, cpu: 1}\n");
        Files.writeString(
                dir.resolve("kustomization.yaml"),
                "resources: [flink-deployment.yaml]\ncomponents: [" + relative(dir, COMPONENT) + "]\n");

        ObjectNode deployment = Variant.only(Kustomize.build(dir), "FlinkDeployment");

        assertThat(SCHEMA.violations(deployment)).isEmpty();
        JsonNode pod = deployment.path("spec").path("podTemplate").path("spec");
        assertThat(mountPaths(container(pod.path("containers"), "flink-main-container")))
                .containsExactly(PLUGIN_DIR);
        assertThat(container(pod.path("initContainers"), "flinks3-plugin")
                        .path("image")
                        .asText())
                .isEqualTo("flinks3-plugin");
    }

    @Test
    void theBenchmarksFlinks3VariantAddsThePluginWithTheSameComponent() {
        JsonNode spec = Variant.spec(Variant.FLINKS3.flinkDeployment());
        JsonNode pod = spec.path("podTemplate").path("spec");

        JsonNode init = container(pod.path("initContainers"), "flinks3-plugin");
        assertThat(init.path("image").asText()).endsWith(":" + DockerfileTest.PLUGIN_IMAGE);
        assertThat(init.path("command")).isEqualTo(componentInitContainer().path("command"));
        assertThat(mountPaths(container(pod.path("containers"), "flink-main-container")))
                .contains(PLUGIN_DIR);
        JsonNode taskManager = spec.path("taskManager").path("podTemplate").path("spec");
        assertThat(mountPaths(container(taskManager.path("containers"), "flink-main-container")))
                .as("the TaskManager's own mounts stay; the operator merges the templates by name")
                .contains("/opt/flink/rocksdb");
        assertThat(spec.path("serviceAccount").asText()).isEqualTo("flinks3");
    }

    @Test
    void theDoctorPodRunsTheDoctorJarThePluginImageCarriesAsTheComponentsServiceAccountOnTheDeploymentsConfig() {
        JsonNode pod = Yaml.document(ModuleFiles.MODULE.resolve("examples/flinks3-doctor/doctor-pod.yaml"));
        JsonNode spec = pod.path("spec");
        ObjectNode account = Variant.only(
                Kustomize.build(SERVICE_ACCOUNT.getParent().getParent().resolve("examples/flinks3-deployment")),
                "ServiceAccount");

        assertThat(pod.path("kind").asText()).isEqualTo("Pod");
        assertThat(spec.path("serviceAccountName").asText())
                .isEqualTo(account.path("metadata").path("name").asText());
        JsonNode copy = container(spec.path("initContainers"), "doctor-jar");
        assertThat(copy.path("command").get(1).asText())
                .as("where the plugin image (Dockerfile target flinks3-plugin) puts the doctor jar")
                .isEqualTo(DOCTOR_JAR_IN_IMAGE);
        List<String> command = new ArrayList<>();
        container(spec.path("containers"), "doctor").path("command").forEach(word -> command.add(word.asText()));
        assertThat(command).startsWith("java", "-jar").contains("--conf", "/opt/flink/conf/config.yaml");
        assertThat(command.get(command.size() - 1)).startsWith("s3://");
        assertThat(spec.path("volumes").findValuesAsText("name")).contains("flink-config-my-job");
    }

    /** The flinkConfiguration keys the component sets (Flink Kubernetes Operator options, not Flink's). */
    static Set<String> componentConfigurationKeys() {
        Set<String> keys = new TreeSet<>();
        Yaml.document(COMPONENT.resolve("flink-deployment.yaml"))
                .path("spec")
                .path("flinkConfiguration")
                .fieldNames()
                .forEachRemaining(keys::add);
        return keys;
    }

    /**
     * A FlinkDeployment's spec without what the component added: its init container, volume, mounts and keys.
     */
    static ObjectNode withoutComponent(JsonNode spec) {
        ObjectNode copy = spec.deepCopy();
        componentConfigurationKeys().forEach(((ObjectNode) copy.path("flinkConfiguration"))::remove);
        JsonNode pod = copy.path("podTemplate").path("spec");
        if (pod instanceof ObjectNode) {
            removeNamed((ObjectNode) pod, "initContainers", "flinks3-plugin");
            removeNamed((ObjectNode) pod, "volumes", "flinks3-plugin");
            for (JsonNode container : pod.path("containers")) {
                removeNamed((ObjectNode) container, "volumeMounts", "flinks3-plugin");
            }
        }
        return copy;
    }

    private static void removeNamed(ObjectNode parent, String field, String name) {
        JsonNode list = parent.path(field);
        if (!(list instanceof ArrayNode)) {
            return;
        }
        ArrayNode array = (ArrayNode) list;
        for (int i = array.size() - 1; i >= 0; i--) {
            if (name.equals(array.get(i).path("name").asText())) {
                array.remove(i);
            }
        }
        if (array.isEmpty()) {
            parent.remove(field);
        }
    }

    /** The init container's command as the component declares it. */
    static List<String> initContainerCommand() {
        List<String> command = new ArrayList<>();
        componentInitContainer().path("command").forEach(word -> command.add(word.asText()));
        return command;
    }

    private static JsonNode componentInitContainer() {
        JsonNode patch = Yaml.document(COMPONENT.resolve("flink-deployment.yaml"));
        return container(patch.path("spec").path("podTemplate").path("spec").path("initContainers"), "flinks3-plugin");
    }

    private static JsonNode container(JsonNode containers, String name) {
        for (JsonNode container : containers) {
            if (name.equals(container.path("name").asText())) {
                return container;
            }
        }
        throw new AssertionError("no container " + name + " in " + containers);
    }

    private static List<String> mountPaths(JsonNode container) {
        List<String> paths = new ArrayList<>();
        container
                .path("volumeMounts")
                .forEach(mount -> paths.add(mount.path("mountPath").asText()));
        return paths;
    }

    private static List<String> names(JsonNode list) {
        List<String> names = new ArrayList<>();
        list.forEach(item -> names.add(item.path("name").asText()));
        return names;
    }

    private static String relative(Path from, Path to) {
        return from.toAbsolutePath().relativize(to.toAbsolutePath()).toString();
    }
}
