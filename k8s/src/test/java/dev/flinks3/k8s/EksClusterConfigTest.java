package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.MemorySize;
import org.junit.jupiter.api.Test;

/**
 * The eksctl cluster file: OIDC for IRSA and a node group of five 2 vCPU / 8 GiB nodes (three to
 * seven) with 50 GB gp3 volumes, on which one benchmark deployment's pods fit.
 */
class EksClusterConfigTest {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{(\\w+)}");
    /** vCPUs and GiB of memory of the instance types that fit the node: 2 vCPU / 8 GiB. */
    private static final Map<String, double[]> TWO_VCPU_8_GIB =
            Map.of("m6i.large", new double[] {2, 8}, "m7i.large", new double[] {2, 8}, "t3.large", new double[] {2, 8});
    /**
     * What a node keeps from pods: the EKS AMI reserves about 0.6 GiB and 0.07 vCPU on this size
     * (kube-reserved and eviction threshold), and every node runs the aws-node and kube-proxy
     * daemon sets. Rounded up.
     */
    private static final double RESERVED_GIB = 1.0;

    private static final double RESERVED_VCPU = 0.25;

    @Test
    void placeholdersAreTheReadmesClusterNameAndRegion() {
        Set<String> placeholders = new TreeSet<>();
        Matcher placeholder = PLACEHOLDER.matcher(ModuleFiles.read(ModuleFiles.EKS_CLUSTER));
        while (placeholder.find()) {
            placeholders.add(placeholder.group(1));
        }

        assertThat(placeholders).containsExactly("AWS_REGION", "CLUSTER_NAME");
    }

    @Test
    void enablesOidcForIrsa() {
        ObjectNode cluster = cluster();

        assertThat(cluster.path("apiVersion").asText()).isEqualTo("eksctl.io/v1alpha5");
        assertThat(cluster.path("kind").asText()).isEqualTo("ClusterConfig");
        assertThat(cluster.path("metadata").path("region").asText())
                .isEqualTo(Settings.load().region());
        assertThat(cluster.path("iam").path("withOIDC").asBoolean()).isTrue();
    }

    @Test
    void nodeGroupHasFiveNodesOfTwoVcpuAnd8GibBetweenThreeAndSevenWith50GbGp3() {
        JsonNode nodes = nodeGroup();

        assertThat(TWO_VCPU_8_GIB).containsKey(nodes.path("instanceType").asText());
        assertThat(nodes.path("desiredCapacity").asInt()).isEqualTo(5);
        assertThat(nodes.path("minSize").asInt()).isEqualTo(3);
        assertThat(nodes.path("maxSize").asInt()).isEqualTo(7);
        assertThat(nodes.path("volumeType").asText()).isEqualTo("gp3");
        assertThat(nodes.path("volumeSize").asInt()).isEqualTo(50);
    }

    @Test
    void eachFlinkPodFitsANodeAndOneDeploymentFitsTheSmallestNodeGroup() {
        double[] node = TWO_VCPU_8_GIB.get(nodeGroup().path("instanceType").asText());
        JsonNode spec = Variant.spec(Variant.FLINKS3.flinkDeployment());
        JsonNode jobManager = spec.path("jobManager").path("resource");
        JsonNode taskManager = spec.path("taskManager").path("resource");
        double freeVcpu = node[0] - RESERVED_VCPU;
        double freeGib = node[1] - RESERVED_GIB;

        for (JsonNode pod : new JsonNode[] {jobManager, taskManager}) {
            assertThat(pod.path("cpu").asDouble()).isLessThanOrEqualTo(freeVcpu);
            assertThat(gib(pod)).isLessThanOrEqualTo(freeGib);
        }
        // No two task managers, and no task manager with the job manager, share a node: one node each.
        boolean taskManagerShares = gib(taskManager) + gib(jobManager) <= freeGib
                && taskManager.path("cpu").asDouble() + jobManager.path("cpu").asDouble() <= freeVcpu;
        int nodesNeeded = spec.path("taskManager").path("replicas").asInt() + (taskManagerShares ? 0 : 1);
        assertThat(nodesNeeded).isLessThanOrEqualTo(nodeGroup().path("minSize").asInt());
    }

    private static double gib(JsonNode resource) {
        return MemorySize.parse(resource.path("memory").asText()).getBytes() / (double) (1L << 30);
    }

    private static JsonNode nodeGroup() {
        JsonNode groups = cluster().path("managedNodeGroups");
        assertThat(groups).hasSize(1);
        return groups.get(0);
    }

    private static ObjectNode cluster() {
        String text = ModuleFiles.read(ModuleFiles.EKS_CLUSTER)
                .replace("${CLUSTER_NAME}", "flinks3-benchmark")
                .replace("${AWS_REGION}", Settings.load().region());
        return Yaml.documents(text, ModuleFiles.EKS_CLUSTER.toString()).get(0);
    }
}
