package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each overlay renders (with the real kustomize) to one application-mode FlinkDeployment that the CRD
 * schema of the operator named in k8s/README.md accepts.
 */
class FlinkDeploymentManifestTest {

    private static final Pattern FLINK_2_VERSION = Pattern.compile("v2_(\\d+)");
    /** The minor version of the image's Flink (flink:2.3-java17). */
    private static final int IMAGE_FLINK_MINOR = 3;

    private static final CrdSchema SCHEMA = CrdSchema.flinkDeployment();

    static List<String> overlays() {
        return ModuleFiles.overlays();
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void everyOverlayRendersAFlinkDeploymentTheCrdSchemaAccepts(String overlay) {
        ObjectNode manifest = Variant.only(Kustomize.build(ModuleFiles.OVERLAYS.resolve(overlay)), "FlinkDeployment");

        assertThat(manifest.path("apiVersion").asText()).isEqualTo(SCHEMA.apiVersion());
        assertThat(SCHEMA.violations(manifest)).isEmpty();
    }

    @Test
    void theOverlaysAreTheVariantsAndForSt() {
        assertThat(overlays())
                .containsExactlyInAnyOrder("flinks3", "presto", "flinks3-defaults", "presto-defaults", "flinks3-forst");
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void rendersOneFlinkDeploymentNamedAfterThePlugin(Variant variant) {
        ObjectNode manifest = variant.flinkDeployment();

        assertThat(manifest.path("metadata").path("name").asText()).isEqualTo(variant.deploymentName);
        assertThat(manifest.path("metadata").path("namespace").asText()).isEqualTo("flink-benchmark");
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void isAnApplicationDeploymentOfTheImagesJobJar(Variant variant) {
        JsonNode spec = Variant.spec(variant.flinkDeployment());

        assertThat(spec.path("mode").asText()).isEqualTo("native");
        assertThat(spec.path("job").isObject())
                .as("a job makes it an application deployment")
                .isTrue();
        assertThat(spec.path("job").path("jarURI").asText()).startsWith("local:///opt/flink/usrlib/");
        assertThat(spec.path("job").path("upgradeMode").asText()).isEqualTo("stateless");
        assertThat(spec.path("job").path("state").asText()).isEqualTo("running");
        assertThat(spec.path("image").asText()).endsWith(":" + variant.imageTarget);
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void entryClassIsInTheBenchmarkJobJar(Variant variant) throws ClassNotFoundException {
        String entryClass = Variant.spec(variant.flinkDeployment())
                .path("job")
                .path("entryClass")
                .asText();

        assertThat(Class.forName(entryClass)
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .getPath())
                .contains("benchmark-job");
    }

    @Test
    void crdSchemaRejectsAMisspeltFieldAWrongTypeAndAnUnknownFlinkVersion() {
        ObjectNode manifest = Variant.FLINKS3.flinkDeployment();
        ((ObjectNode) manifest.path("spec").path("job")).put("paralelism", 8);
        ((ObjectNode) manifest.path("spec").path("taskManager")).put("replicas", "two");
        ((ObjectNode) manifest.path("spec")).put("flinkVersion", "v2_9");

        assertThat(SCHEMA.violations(manifest))
                .hasSize(3)
                .anySatisfy(violation ->
                        assertThat(violation).startsWith("/spec/job:").contains("'paralelism'"))
                .anySatisfy(violation -> assertThat(violation).startsWith("/spec/taskManager/replicas:"))
                .anySatisfy(violation -> assertThat(violation).startsWith("/spec/flinkVersion:"));
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void flinkVersionIsAFlink2VersionTheOperatorRunsAndNoNewerThanTheImage(Variant variant) {
        String flinkVersion =
                Variant.spec(variant.flinkDeployment()).path("flinkVersion").asText();
        Matcher version = FLINK_2_VERSION.matcher(flinkVersion);

        assertThat(SCHEMA.flinkVersions()).contains(flinkVersion);
        assertThat(version.matches()).as("flinkVersion v2_<minor>").isTrue();
        assertThat(Integer.parseInt(version.group(1))).isBetween(0, IMAGE_FLINK_MINOR);
    }

    @Test
    void theReadmeInstallsTheOperatorWhoseCrdTheTestsUse() {
        assertThat(ModuleFiles.read(ModuleFiles.README))
                .contains("flink-kubernetes-operator-" + CrdSchema.OPERATOR_VERSION + "/");
    }
}
