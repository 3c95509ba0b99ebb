package dev.flinks3.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.k8s.Dockerfile.PlacedFile;
import dev.flinks3.k8s.Dockerfile.Stage;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The image build file: the official Flink image of the build's Flink version on Java 17, the job
 * jar where the FlinkDeployments look for it, and per variant exactly one plugin folder, named as
 * Flink's plugin jars name their folders.
 */
class DockerfileTest {

    private static final String PLUGINS = "/opt/flink/plugins/";
    private static final String USRLIB = "/opt/flink/usrlib/";
    /** A jar's artifact name: what precedes the version (or a glob standing for it). */
    private static final Pattern ARTIFACT_NAME = Pattern.compile("(.+?)-(?:\\d.*|\\*)\\.jar");

    /** The plugin-only image's target, the image of k8s/components/flinks3's init container. */
    static final String PLUGIN_IMAGE = "flinks3-plugin";

    private final Dockerfile dockerfile = Dockerfile.parse(ModuleFiles.DOCKERFILE);

    @Test
    void startsFromTheOfficialFlinkImageOfTheBuildsFlinkVersionOnJava17() {
        String flinkVersion = Poms.value("", "/project/properties/flink.version");
        String majorMinor = flinkVersion.substring(0, flinkVersion.lastIndexOf('.'));

        for (Variant variant : Variant.values()) {
            assertThat(dockerfile.baseImage(stage(variant))).isEqualTo("flink:" + majorMinor + "-java17");
        }
    }

    @Test
    void hasOneTargetPerVariantAndBuildsOursWithoutATarget() {
        List<String> names = dockerfile.stages().stream().map(Stage::name).collect(Collectors.toList());

        assertThat(names).contains(Variant.FLINKS3.imageTarget, Variant.PRESTO.imageTarget, PLUGIN_IMAGE);
        assertThat(names.get(names.size() - 1)).isEqualTo(Variant.FLINKS3.imageTarget);
    }

    @Test
    void versionArgumentIsThisBuildsVersion() {
        assertThat(dockerfile.globalArguments()).containsEntry("FLINKS3_VERSION", ModuleFiles.projectVersion());
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void putsTheBenchmarkJobJarWhereTheDeploymentLooksForIt(Variant variant) {
        String jarUri = Variant.spec(variant.flinkDeployment())
                .path("job")
                .path("jarURI")
                .asText();
        String jobJar = "benchmark-job/target/" + Poms.value("benchmark-job", "/project/build/finalName") + ".jar";

        assertThat(filesUnder(variant, USRLIB)).containsExactly(new PlacedFile(jobJar, jarUri.replace("local://", "")));
    }

    @Test
    void prestosImageHasExactlyOnePluginFolderNamedAfterItsJar() {
        List<PlacedFile> plugins = filesUnder(Variant.PRESTO, PLUGINS);
        Set<String> folders = plugins.stream()
                .map(file -> file.targetFolder().substring(PLUGINS.length()))
                .collect(Collectors.toSet());

        assertThat(folders).containsExactly(Variant.PRESTO.pluginFolder);
        assertThat(plugins)
                .hasSize(1)
                .allSatisfy(plugin -> assertThat(artifactName(plugin.fileName()))
                        .as("Flink's convention: plugins/s3-fs-presto holds flink-s3-fs-presto-<version>.jar")
                        .endsWith("-" + Variant.PRESTO.pluginFolder));
    }

    @Test
    void theFlinks3BenchmarkImageCarriesNoS3PluginItsInitContainerAddsOurs() {
        assertThat(filesUnder(Variant.FLINKS3, PLUGINS)).isEmpty();
    }

    @Test
    void thePluginImageCarriesThisBuildsPluginJarWhereTheComponentsInitContainerCopiesFrom() {
        String artifactId = Poms.value("plugin", "/project/artifactId");
        String jar = artifactId + "-" + ModuleFiles.projectVersion() + ".jar";
        Stage pluginImage = dockerfile.stage(PLUGIN_IMAGE).orElseThrow();

        String doctor = Poms.value("doctor", "/project/artifactId") + "-" + ModuleFiles.projectVersion() + ".jar";
        assertThat(dockerfile.placedFiles(pluginImage))
                .containsExactly(
                        new PlacedFile("plugin/target/" + jar, "/flinks3/" + jar),
                        new PlacedFile("doctor/target/" + doctor, Flinks3ComponentTest.DOCTOR_JAR_IN_IMAGE));
        assertThat(Flinks3ComponentTest.initContainerCommand())
                .as("the init container copies what the plugin image holds")
                .contains("/flinks3/.");
    }

    @Test
    void prestoVariantEnablesThePluginFlinkShipsInOpt() {
        assertThat(filesUnder(Variant.PRESTO, PLUGINS))
                .extracting(PlacedFile::source)
                .containsExactly("/opt/flink/opt/flink-s3-fs-presto-*.jar");
    }

    @Test
    void dockerIgnoreLetsInEveryCopiedFileAndNothingElse() {
        List<String> lines = ModuleFiles.read(ModuleFiles.MODULE.resolve("Dockerfile.dockerignore"))
                .lines()
                .map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .collect(Collectors.toList());
        List<PathMatcher> admitted = lines.stream()
                .filter(line -> line.startsWith("!"))
                .map(line -> FileSystems.getDefault().getPathMatcher("glob:" + line.substring(1)))
                .collect(Collectors.toList());
        List<String> copiedFromContext = dockerfile.stages().stream()
                .flatMap(stage -> dockerfile.placedFiles(stage).stream())
                .map(PlacedFile::source)
                .filter(source -> !source.startsWith("/"))
                .distinct()
                .collect(Collectors.toList());

        assertThat(lines.get(0)).isEqualTo("*");
        assertThat(copiedFromContext)
                .hasSize(4)
                .allSatisfy(source -> assertThat(admitted).anyMatch(matcher -> matcher.matches(Path.of(source))));
    }

    private Stage stage(Variant variant) {
        return dockerfile
                .stage(variant.imageTarget)
                .orElseThrow(() -> new AssertionError("no stage " + variant.imageTarget));
    }

    private List<PlacedFile> filesUnder(Variant variant, String folder) {
        return dockerfile.placedFiles(stage(variant)).stream()
                .filter(file -> file.target().startsWith(folder))
                .collect(Collectors.toList());
    }

    private static String artifactName(String jarName) {
        Matcher matcher = ARTIFACT_NAME.matcher(jarName);
        assertThat(matcher.matches()).as("versioned jar name: " + jarName).isTrue();
        return matcher.group(1);
    }
}
