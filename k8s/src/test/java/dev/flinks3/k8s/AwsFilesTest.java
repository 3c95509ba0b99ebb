package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The IAM policy grants exactly the S3 actions the plugin's calls need, on one bucket, and the
 * bucket's lifecycle rule cleans up multipart uploads nobody completed or aborted.
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

    @Test
    void lifecycleAbortsIncompleteMultipartUploadsAfterOneDayInTheWholeBucket() {
        JsonNode rules = Yaml.json(ModuleFiles.read(ModuleFiles.BUCKET_LIFECYCLE), "bucket-lifecycle.json")
                .path("Rules");

        assertThat(rules).hasSize(1);
        JsonNode rule = rules.get(0);
        assertThat(rule.path("Status").asText()).isEqualTo("Enabled");
        assertThat(rule.path("Filter").path("Prefix").asText("missing")).isEmpty();
        assertThat(rule.path("AbortIncompleteMultipartUpload")
                        .path("DaysAfterInitiation")
                        .asInt())
                .isEqualTo(1);
        assertThat(rule.has("Expiration"))
                .as("checkpoints are never expired by the rule")
                .isFalse();
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
