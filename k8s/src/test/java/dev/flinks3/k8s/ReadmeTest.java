package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The README's commands name files that exist, and use every file a run needs. */
class ReadmeTest {

    private static final Pattern MODULE_PATH = Pattern.compile("k8s/[\\w./-]*[\\w/]");

    @Test
    void everyPathTheReadmeNamesExists() {
        List<String> paths = new ArrayList<>();
        Matcher path = MODULE_PATH.matcher(ModuleFiles.read(ModuleFiles.README));
        while (path.find()) {
            paths.add(path.group());
        }

        assertThat(paths)
                .isNotEmpty()
                .allSatisfy(named ->
                        assertThat(ModuleFiles.REPOSITORY.resolve(named)).exists());
    }

    @Test
    void commandsUseEveryFileOfARun() {
        assertThat(ModuleFiles.read(ModuleFiles.README))
                .contains(
                        "envsubst '${CLUSTER_NAME} ${AWS_REGION}' < k8s/eks/cluster.yaml | eksctl create cluster -f -",
                        "file://k8s/aws/bucket-lifecycle.json",
                        "< k8s/aws/iam-policy.json",
                        "eksctl create iamserviceaccount",
                        "-f k8s/Dockerfile --target \"$target\"",
                        "for target in flinks3-plugin flinks3-s3 presto-s3",
                        "k8s/scripts/configure.sh",
                        "kubectl apply -k k8s/manifests/overlays/flinks3",
                        "kubectl apply -k k8s/manifests/overlays/presto",
                        "kubectl apply -k k8s/manifests/overlays/flinks3-defaults",
                        "kubectl apply -k k8s/manifests/overlays/presto-defaults",
                        "k8s/scripts/collect-results.sh flinks3-s3-benchmark",
                        "k8s/scripts/collect-results.sh presto-s3-benchmark",
                        "eksctl delete cluster");
    }

    @Test
    void irsaNamesMatchTheManifests() {
        String readme = ModuleFiles.read(ModuleFiles.README);
        var serviceAccount =
                Variant.only(Variant.FLINKS3.render(), "ServiceAccount").path("metadata");

        assertThat(readme)
                .contains("--namespace " + serviceAccount.path("namespace").asText() + " --name "
                        + serviceAccount.path("name").asText());
    }
}
