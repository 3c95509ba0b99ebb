package dev.flinks3.it.answers;

import static dev.flinks3.it.answers.RewrittenAnswersServer.randomBytes;
import static dev.flinks3.it.answers.RewrittenAnswersServer.read;
import static dev.flinks3.it.answers.RewrittenAnswersServer.write;
import static dev.flinks3.it.answers.RewrittenAnswersServer.writePersistRecoverAndCommit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.it.CephRgw;
import dev.flinks3.it.FlinkS3FileSystems;
import dev.flinks3.it.S3TestTarget;
import dev.flinks3.testserver.AnswerRewriteFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.opentest4j.TestAbortedException;

/**
 * The configuration recipes of docs/stores.md and README.md work as written: each block marked {@code <!--
 * recipe: NAME -->} is read from the page, its keys are checked against the configuration reference, and a
 * filesystem made from them (the endpoint, path style and keys replaced by the test server's, everything else as
 * the page says) writes a file, persists, recovers and commits a {@code FileSink}-style recoverable stream whose
 * parts differ in size, and reads both back byte-exact. Each store's recipe runs on S3Proxy answering as that
 * store does: R2's refusal of parts of unequal size and B2's refusal of {@code x-amz-checksum-*} headers are
 * imitated at the HTTP boundary, and the recipe must get through without a single refused request. The Ceph
 * recipe runs on the Ceph RGW when one runs (else on S3Proxy).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StoreRecipesTest {

    private static final int MIB = 1024 * 1024;

    /** A recipe block: the marker comment, then a YAML code block. */
    private static final Pattern RECIPE =
            Pattern.compile("<!-- recipe: ([\\w-]+) -->\\s*```yaml\\n(.*?)```", Pattern.DOTALL);

    /** The keys that say where the store is and who signs: the test server's replace the page's. */
    private static final List<String> LOCATION_KEYS =
            List.of("s3.endpoint", "s3.path-style-access", "s3.access-key", "s3.secret-key");

    private RewrittenAnswersServer server;
    private final String base = "StoreRecipesTest/" + UUID.randomUUID();

    @BeforeAll
    void start() {
        server = new RewrittenAnswersServer(true);
    }

    @AfterEach
    void clearRules() {
        server.answers().clear();
        server.server().requestLog().clear();
    }

    @AfterAll
    void stop() throws Exception {
        server.close();
    }

    @Test
    void thePagesHoldARecipeForAwsOnPremisesAndEveryStoreTheyName() {
        assertThat(recipes().keySet())
                .containsExactlyInAnyOrder("aws", "on-premises", "minio", "ceph", "r2", "b2", "other");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recipeNames")
    void everyKeyOfTheRecipeIsAnOptionOfTheReference(String name) throws IOException {
        String reference = Files.readString(repositoryRoot().resolve("docs/configuration.md"));
        assertThat(recipes().get(name).keySet())
                .allSatisfy(key -> assertThat(
                                key.startsWith("execution.checkpointing.") || reference.contains("`" + key + "`"))
                        .as("%s of recipe %s in docs/configuration.md", key, name)
                        .isTrue());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("recipeNames")
    void theRecipeWritesCommitsAndReadsBackWithoutARefusedRequest(String name) throws Exception {
        Map<String, String> recipe = recipes().get(name);
        if (name.equals("ceph") && cephRuns()) {
            writeCommitAndReadBack(configuration(recipe, CephRgw.target()), CephRgw.bucket(), name);
            return;
        }
        AnswerRewriteFilter.Rule unequalParts = null;
        if (name.equals("r2")) {
            unequalParts = server.refuseUnequalParts();
        } else if (name.equals("b2")) {
            server.answers().refuseChecksumHeaders();
        }

        writeCommitAndReadBack(configuration(recipe, server.target()), RewrittenAnswersServer.BUCKET, name);

        if (unequalParts != null) {
            assertThat(unequalParts.applied())
                    .as("completions refused as R2 does")
                    .isZero();
        }
        if (name.equals("b2")) {
            assertThat(server.server().requestLog().entries().stream()
                            .filter(r -> r.key().startsWith(base))
                            .filter(r -> r.headers().keySet().stream().anyMatch(h -> h.startsWith("x-amz-checksum"))))
                    .as("requests with x-amz-checksum-*, which B2 refuses")
                    .isEmpty();
        }
    }

    /** The page's keys, with the target's endpoint, path style and keys in place of the page's. */
    private static Configuration configuration(Map<String, String> recipe, S3TestTarget target) {
        Configuration configuration = Configuration.fromMap(recipe);
        Configuration location = target.flinkConfiguration();
        for (String key : LOCATION_KEYS) {
            configuration.setString(key, location.getString(key, null));
        }
        return configuration;
    }

    private void writeCommitAndReadBack(Configuration configuration, String bucket, String name) throws Exception {
        FileSystemFactory factory = FlinkS3FileSystems.factory("s3", configuration);
        Path dir = new Path("s3://" + bucket + "/" + base + "/" + name);
        try {
            FileSystem fs = factory.create(URI.create("s3://" + bucket + "/"));
            try {
                byte[] file = randomBytes(9 * MIB + 7, 1);
                write(fs, new Path(dir, "file"), file, WriteMode.NO_OVERWRITE);

                // As a FileSink part file: persisted at 6 MiB, recovered and written on; for R2, on to parts
                // of three sizes without s3.upload.uniform-parts (6, 8 and 5 MiB), which R2 refuses to complete.
                byte[] before = randomBytes(6 * MIB, 2);
                byte[] after = randomBytes((name.equals("r2") ? 13 * MIB : 3 * MIB) + 3, 3);
                writePersistRecoverAndCommit(fs, new Path(dir, "part-0-0"), before, after);

                assertThat(read(fs, new Path(dir, "file"))).isEqualTo(file);
                byte[] committed = read(fs, new Path(dir, "part-0-0"));
                assertThat(committed.length).isEqualTo(before.length + after.length);
                assertThat(Arrays.copyOf(committed, before.length)).isEqualTo(before);
                assertThat(Arrays.copyOfRange(committed, before.length, committed.length))
                        .isEqualTo(after);
            } finally {
                fs.delete(dir, true);
            }
        } finally {
            FlinkS3FileSystems.closeClients(factory);
        }
    }

    private static boolean cephRuns() {
        try {
            CephRgw.target();
            return true;
        } catch (TestAbortedException notRunning) {
            return false;
        }
    }

    Stream<String> recipeNames() {
        return recipes().keySet().stream();
    }

    /** Every recipe of docs/stores.md and README.md by name: its keys and values, comments left out. */
    static Map<String, Map<String, String>> recipes() {
        Map<String, Map<String, String>> recipes = new LinkedHashMap<>();
        for (String page : List.of("README.md", "docs/stores.md")) {
            String text;
            try {
                text = Files.readString(repositoryRoot().resolve(page));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Matcher recipe = RECIPE.matcher(text);
            while (recipe.find()) {
                Map<String, String> keys = recipe.group(2)
                        .lines()
                        .map(line -> line.replaceFirst("\\s+#.*$", "").trim())
                        .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                        .collect(Collectors.toMap(
                                line -> line.substring(0, line.indexOf(':')).trim(),
                                line -> line.substring(line.indexOf(':') + 1).trim(),
                                (a, b) -> b,
                                LinkedHashMap::new));
                assertThat(recipes.put(recipe.group(1), keys))
                        .as("recipe %s given twice", recipe.group(1))
                        .isNull();
            }
        }
        return recipes;
    }

    private static java.nio.file.Path repositoryRoot() {
        for (java.nio.file.Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("docs/stores.md")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException(
                "no repository root with docs/stores.md above " + Paths.get("").toAbsolutePath());
    }
}
