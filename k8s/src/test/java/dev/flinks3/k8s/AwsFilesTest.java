package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The IAM policy grants exactly the S3 actions the plugin's calls need, on one bucket, and the
 * bucket's lifecycle rules clean up the multipart uploads of checkpoint streams nobody completed or
 * aborted, scoped to the checkpoint and savepoint directories.
 */
class AwsFilesTest {

    private static final String BUCKET_ARN = "arn:aws:s3:::${BUCKET}";
    private static final String OBJECTS_ARN = BUCKET_ARN + "/*";

    @Test
    void everyS3CallOfThePluginHasItsIamActions() {
        assertThat(S3Calls.called())
                .isNotEmpty()
                .allSatisfy(call -> assertThat(S3Calls.IAM_ACTIONS)
                        .as("IAM actions of %s (add it to S3Calls and aws/iam-policy.json)", call)
                        .containsKey(call));
    }

    @Test
    void policyGrantsExactlyTheActionsThoseCallsNeed() {
        Set<String> needed = new TreeSet<>();
        S3Calls.called().forEach(call -> needed.addAll(S3Calls.IAM_ACTIONS.getOrDefault(call, Set.of())));

        assertThat(grantedActions())
                .isEqualTo(needed)
                .containsExactlyInAnyOrder(
                        "s3:GetObject",
                        "s3:PutObject",
                        "s3:DeleteObject",
                        "s3:ListBucket",
                        "s3:AbortMultipartUpload",
                        "s3:ListMultipartUploadParts",
                        "s3:ListBucketMultipartUploads");
    }

    @Test
    void policyAllowsOnlyTheOneBucketAndItsObjects() {
        JsonNode policy = policy();

        assertThat(policy.path("Version").asText()).isEqualTo("2012-10-17");
        for (JsonNode statement : policy.path("Statement")) {
            assertThat(statement.path("Effect").asText()).isEqualTo("Allow");
            String resource = statement.path("Resource").asText();
            assertThat(resource).isIn(BUCKET_ARN, OBJECTS_ARN);
            for (JsonNode action : statement.path("Action")) {
                // Bucket-level actions on the bucket ARN, object-level actions on its objects.
                boolean bucketAction = action.asText().startsWith("s3:ListBucket");
                assertThat(resource).as(action.asText()).isEqualTo(bucketAction ? BUCKET_ARN : OBJECTS_ARN);
            }
        }
    }

    /**
     * One rule per checkpoint and savepoint directory of each deployment (the base FlinkDeployment's
     * {@code s3://BUCKET/DEPLOYMENT/...}, DEPLOYMENT the variant's name), and none wider: a rule on the
     * whole bucket, or on a prefix a FileSink writes under, would abort the multipart uploads of in-progress
     * part files that the RecoverableWriter persisted (docs/operations.md, "Incomplete multipart uploads").
     */
    @Test
    void lifecycleAbortsIncompleteUploadsAfterOneDayOnlyUnderTheCheckpointAndSavepointDirectories() {
        JsonNode rules = Yaml.json(ModuleFiles.read(ModuleFiles.BUCKET_LIFECYCLE), "bucket-lifecycle.json")
                .path("Rules");
        JsonNode configuration = Yaml.document(ModuleFiles.MANIFESTS.resolve("base/flink-deployment.yaml"))
                .path("spec")
                .path("flinkConfiguration");
        Set<String> directories = new TreeSet<>();
        for (Variant.Plugin plugin : Variant.Plugin.values()) {
            for (String key : List.of("execution.checkpointing.dir", "execution.checkpointing.savepoint-dir")) {
                String dir = configuration.path(key).asText();
                assertThat(dir).as(key).startsWith("s3://BUCKET/DEPLOYMENT/");
                directories.add(dir.replace("s3://BUCKET/DEPLOYMENT/", plugin.deploymentName + "/") + "/");
            }
        }

        Set<String> prefixes = new TreeSet<>();
        for (JsonNode rule : rules) {
            String prefix = rule.path("Filter").path("Prefix").asText("");
            prefixes.add(prefix);
            assertThat(rule.path("Status").asText()).as(prefix).isEqualTo("Enabled");
            assertThat(rule.path("AbortIncompleteMultipartUpload")
                            .path("DaysAfterInitiation")
                            .asInt())
                    .as(prefix)
                    .isEqualTo(1);
            assertThat(rule.has("Expiration"))
                    .as("checkpoints are never expired by the rule")
                    .isFalse();
        }
        assertThat(prefixes)
                .as("prefixes of the lifecycle rules: the checkpoint and savepoint directories, nothing wider")
                .doesNotContain("")
                .isEqualTo(directories);
    }

    private static Set<String> grantedActions() {
        Set<String> actions = new HashSet<>();
        policy().path("Statement").forEach(statement -> statement.path("Action").forEach(a -> actions.add(a.asText())));
        return actions;
    }

    private static JsonNode policy() {
        return Yaml.json(ModuleFiles.read(ModuleFiles.IAM_POLICY), "iam-policy.json");
    }
}
