package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bucket, region, role, images and sizes are set in one place: change settings.yaml (as
 * scripts/configure.sh does) in a copy of the manifests, and both overlays follow everywhere.
 */
class SettingsOnePlaceTest {

    private static final Map<String, String> ACCOUNT = Map.of(
            "BUCKET", "another-bucket",
            "AWS_REGION", "us-west-2",
            "ROLE_ARN", "arn:aws:iam::210987654321:role/another-role",
            "REPOSITORY", "210987654321.dkr.ecr.us-west-2.amazonaws.com/another-repository");

    @TempDir
    Path module;

    /** The copy's manifests folder; the components the overlays use are copied beside it. */
    Path copy;

    @BeforeEach
    void copyManifests() throws IOException {
        for (String folder : List.of("manifests", "components")) {
            Path source = ModuleFiles.MODULE.resolve(folder);
            try (Stream<Path> files = Files.walk(source)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    Path target = module.resolve(folder)
                            .resolve(source.relativize(file).toString());
                    if (Files.isDirectory(file)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(file, target);
                    }
                }
            }
        }
        copy = module.resolve("manifests");
    }

    @Test
    void configureScriptWritesTheAccountValuesAndKeepsTheRest() {
        Path settings = copy.resolve("settings/settings.yaml");
        ObjectNode before = Yaml.document(settings);

        Command.Result result = Bash.run(ACCOUNT, ModuleFiles.SCRIPTS.resolve("configure.sh"), settings.toString());

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        ObjectNode after = Yaml.document(settings);
        assertThat(after.path("bucket").asText()).isEqualTo("another-bucket");
        assertThat(after.path("region").asText()).isEqualTo("us-west-2");
        assertThat(after.path("roleArn").asText()).isEqualTo(ACCOUNT.get("ROLE_ARN"));
        assertThat(after.path("imageRepository").asText()).isEqualTo(ACCOUNT.get("REPOSITORY"));
        for (String field : List.of("bucket", "region", "roleArn", "imageRepository")) {
            before.remove(field);
            after.remove(field);
        }
        assertThat(after).isEqualTo(before);
    }

    @Test
    void configureScriptRefusesAValueThatWouldBreakTheFile() throws IOException {
        Path settings = copy.resolve("settings/settings.yaml");
        String before = Files.readString(settings);
        Map<String, String> account = new java.util.HashMap<>(ACCOUNT);
        account.put("BUCKET", "bucket\nregion: x");

        Command.Result result = Bash.run(account, ModuleFiles.SCRIPTS.resolve("configure.sh"), settings.toString());

        assertThat(result.exitCode()).isNotZero();
        assertThat(Files.readString(settings)).isEqualTo(before);
    }

    @Test
    void bothOverlaysFollowTheAccountValues() {
        Bash.run(
                ACCOUNT,
                ModuleFiles.SCRIPTS.resolve("configure.sh"),
                copy.resolve("settings/settings.yaml").toString());

        for (Variant variant : Variant.values()) {
            List<ObjectNode> objects = variant.render(copy);
            JsonNode spec = Variant.spec(Variant.only(objects, "FlinkDeployment"));
            String rendered = objects.toString();

            assertThat(spec.path("flinkConfiguration")
                            .path("execution.checkpointing.dir")
                            .asText())
                    .isEqualTo("s3://another-bucket/" + variant.deploymentName + "/checkpoints");
            assertThat(spec.path("image").asText()).isEqualTo(ACCOUNT.get("REPOSITORY") + ":" + variant.imageTarget);
            assertThat(spec.findValues("env").get(0).get(0).path("value").asText())
                    .isEqualTo("us-west-2");
            assertThat(Variant.only(objects, "ServiceAccount")
                            .path("metadata")
                            .path("annotations")
                            .path("eks.amazonaws.com/role-arn")
                            .asText())
                    .isEqualTo(ACCOUNT.get("ROLE_ARN"));
            assertThat(rendered).doesNotContain("flinks3-benchmark-example", "eu-west-1", "123456789012");
        }
    }

    @Test
    void bothOverlaysFollowTheSizes() throws IOException {
        Path settings = copy.resolve("settings/settings.yaml");
        Files.writeString(
                settings,
                Files.readString(settings)
                        .replace("memory: 6144m", "memory: 4096m")
                        .replace("replicas: 2", "replicas: 3"));

        for (Variant variant : Variant.values()) {
            JsonNode taskManager = Variant.spec(Variant.only(variant.render(copy), "FlinkDeployment"))
                    .path("taskManager");

            assertThat(taskManager.path("resource").path("memory").asText()).isEqualTo("4096m");
            assertThat(taskManager.path("replicas").asInt()).isEqualTo(3);
        }
    }
}
