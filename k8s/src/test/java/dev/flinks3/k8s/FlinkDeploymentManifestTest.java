package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.kubernetes.operator.api.FlinkDeployment;
import org.apache.flink.kubernetes.operator.api.spec.JobState;
import org.apache.flink.kubernetes.operator.api.spec.KubernetesDeploymentMode;
import org.apache.flink.kubernetes.operator.api.spec.UpgradeMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each overlay renders to one application-mode FlinkDeployment the operator's model and CRD accept. */
class FlinkDeploymentManifestTest {

    private static final String FLINK_VERSION_FIELD = ".spec.flinkVersion";
    private static final Pattern FLINK_2_VERSION = Pattern.compile("v2_(\\d+)");
    /** The minor version of the image's Flink (flink:2.3-java17). */
    private static final int IMAGE_FLINK_MINOR = 3;

    @ParameterizedTest
    @EnumSource(Variant.class)
    void rendersOneFlinkDeploymentNamedAfterTheVariant(Variant variant) {
        ObjectNode manifest = variant.flinkDeployment();

        assertThat(manifest.path("metadata").path("name").asText()).isEqualTo(variant.deploymentName);
        assertThat(manifest.path("metadata").path("namespace").asText()).isEqualTo("flink-benchmark");
        assertThat(manifest.path("apiVersion").asText()).isEqualTo(HasMetadata.getApiVersion(FlinkDeployment.class));
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void bindsToTheOperatorModelAsAnApplicationDeployment(Variant variant) {
        FlinkDeployment deployment = OperatorModel.bind(variant.flinkDeployment());

        assertThat(deployment.getSpec().getMode()).isEqualTo(KubernetesDeploymentMode.NATIVE);
        assertThat(deployment.getSpec().getJob()).as("a job makes it an application deployment").isNotNull();
        assertThat(deployment.getSpec().getJob().getJarURI()).startsWith("local:///opt/flink/usrlib/");
        assertThat(deployment.getSpec().getJob().getUpgradeMode()).isEqualTo(UpgradeMode.STATELESS);
        assertThat(deployment.getSpec().getJob().getState()).isEqualTo(JobState.RUNNING);
        assertThat(deployment.getSpec().getImage()).endsWith(":" + variant.imageTarget);
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void entryClassIsInTheBenchmarkJobJar(Variant variant) throws ClassNotFoundException {
        String entryClass = OperatorModel.bind(variant.flinkDeployment()).getSpec().getJob().getEntryClass();

        assertThat(Class.forName(entryClass).getProtectionDomain().getCodeSource().getLocation().getPath())
                .contains("benchmark-job");
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void passesTheCrdSchema(Variant variant) {
        CrdSchema schema = CrdSchema.flinkDeployment(Set.of(FLINK_VERSION_FIELD));

        assertThat(schema.violations(variant.flinkDeployment())).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void crdSchemaRejectsAMisspeltFieldAndAWrongType(Variant variant) {
        ObjectNode manifest = variant.flinkDeployment();
        ((ObjectNode) manifest.path("spec").path("job")).put("paralelism", 8);
        ((ObjectNode) manifest.path("spec").path("flinkConfiguration")).put("parallelism.default", 8);

        assertThat(CrdSchema.flinkDeployment(Set.of(FLINK_VERSION_FIELD)).violations(manifest))
                .containsExactlyInAnyOrder(
                        ".spec.job.paralelism: unknown field",
                        ".spec.flinkConfiguration.parallelism.default: expected string, was 8");
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void flinkVersionIsAFlink2VersionNoNewerThanTheImage(Variant variant) {
        Matcher version = FLINK_2_VERSION.matcher(OperatorModel.flinkVersion(variant.flinkDeployment()));

        assertThat(version.matches()).as("flinkVersion v2_<minor>").isTrue();
        assertThat(Integer.parseInt(version.group(1))).isBetween(0, IMAGE_FLINK_MINOR);
    }
}
