package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Credentials come only from IRSA: the pods run as a service account annotated with an IAM role,
 * which the JobManager may use to manage its TaskManagers, and no static key is written anywhere.
 */
class IrsaTest {

    private static final String ROLE_ANNOTATION = "eks.amazonaws.com/role-arn";
    private static final Pattern ROLE_ARN = Pattern.compile("arn:aws:iam::\\d{12}:role/[\\w+=,.@-]+");
    /** An AWS access key id, or a line naming a secret key or session token with a value. */
    private static final Pattern STATIC_CREDENTIAL = Pattern.compile("(A3T[A-Z0-9]|AKIA|ASIA)[A-Z0-9]{16}"
            + "|(?i)(secret[-_.]?(access[-_.]?)?key|session[-_.]?token)\\s*[:=]\\s*\\S");

    @ParameterizedTest
    @EnumSource(Variant.class)
    void podsRunAsTheServiceAccountAnnotatedWithTheSettingsRole(Variant variant) {
        List<ObjectNode> objects = variant.render();
        ObjectNode serviceAccount = Variant.only(objects, "ServiceAccount");
        String roleArn = serviceAccount
                .path("metadata")
                .path("annotations")
                .path(ROLE_ANNOTATION)
                .asText();

        assertThat(roleArn).matches(ROLE_ARN).isEqualTo(Settings.load().roleArn());
        assertThat(Variant.spec(Variant.only(objects, "FlinkDeployment"))
                        .path("serviceAccount")
                        .asText())
                .isEqualTo(serviceAccount.path("metadata").path("name").asText());
        assertThat(serviceAccount.path("metadata").path("namespace").asText())
                .isEqualTo(Variant.only(objects, "FlinkDeployment")
                        .path("metadata")
                        .path("namespace")
                        .asText());
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void theServiceAccountMayManageTaskManagerPodsAndConfigMaps(Variant variant) {
        List<ObjectNode> objects = variant.render();
        ObjectNode binding = Variant.only(objects, "RoleBinding");
        ObjectNode role = Variant.only(objects, "Role");
        ObjectNode serviceAccount = Variant.only(objects, "ServiceAccount");

        assertThat(binding.path("roleRef").path("name").asText())
                .isEqualTo(role.path("metadata").path("name").asText());
        assertThat(binding.path("subjects").get(0).path("name").asText())
                .isEqualTo(serviceAccount.path("metadata").path("name").asText());
        assertThat(grantedVerbs(role, "", "pods")).contains("create", "delete", "watch", "list");
        assertThat(grantedVerbs(role, "", "configmaps")).contains("create", "update", "delete", "watch");
        assertThat(grantedVerbs(role, "apps", "deployments")).contains("get");
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void noContainerGetsAwsKeysFromTheEnvironment(Variant variant) {
        List<String> names = new ArrayList<>();
        Variant.spec(variant.flinkDeployment())
                .findValues("env")
                .forEach(
                        env -> env.forEach(entry -> names.add(entry.path("name").asText())));

        assertThat(names)
                .isNotEmpty()
                .noneMatch(name -> name.startsWith("AWS_ACCESS_KEY")
                        || name.startsWith("AWS_SECRET")
                        || name.startsWith("AWS_SESSION_TOKEN"));
    }

    @Test
    void noFileOfTheModuleHoldsAStaticCredential() throws IOException {
        List<String> findings = new ArrayList<>();
        for (Path file : moduleFiles()) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                if (STATIC_CREDENTIAL.matcher(lines.get(i)).find()) {
                    findings.add(ModuleFiles.MODULE.relativize(file) + ":" + (i + 1) + ": "
                            + lines.get(i).strip());
                }
            }
        }

        assertThat(findings).isEmpty();
    }

    @Test
    void theCredentialPatternFindsKeys() {
        assertThat(STATIC_CREDENTIAL.matcher("AKIAIOSFODNN7EXAMPLE").find()).isTrue();
        assertThat(STATIC_CREDENTIAL.matcher("s3.secret-key: abc").find()).isTrue();
        assertThat(STATIC_CREDENTIAL.matcher("aws_session_token=xyz").find()).isTrue();
        assertThat(STATIC_CREDENTIAL
                        .matcher("fs.s3.aws.credentials.provider: WebIdentityTokenFileCredentialsProvider")
                        .find())
                .isFalse();
    }

    private static List<String> grantedVerbs(ObjectNode role, String apiGroup, String resource) {
        List<String> verbs = new ArrayList<>();
        for (JsonNode rule : role.path("rules")) {
            if (contains(rule.path("apiGroups"), apiGroup) && contains(rule.path("resources"), resource)) {
                rule.path("verbs").forEach(verb -> verbs.add(verb.asText()));
            }
        }
        return verbs;
    }

    private static boolean contains(JsonNode values, String wanted) {
        for (JsonNode value : values) {
            if (wanted.equals(value.asText())) {
                return true;
            }
        }
        return false;
    }

    /** The module's own files: manifests, image, AWS files, scripts and README (not target/ or tests). */
    private static List<Path> moduleFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        for (String folder : List.of("manifests", "aws", "eks", "scripts")) {
            try (Stream<Path> walk = Files.walk(ModuleFiles.MODULE.resolve(folder))) {
                walk.filter(Files::isRegularFile).forEach(files::add);
            }
        }
        files.add(ModuleFiles.DOCKERFILE);
        files.add(ModuleFiles.README);
        return files;
    }
}
