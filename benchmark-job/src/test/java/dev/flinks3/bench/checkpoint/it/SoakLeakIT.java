package dev.flinks3.bench.checkpoint.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.bench.soak.SoakReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * CI's short soak ({@link ShortSoak}) fails on one file descriptor, one thread or one connection left behind per
 * checkpoint or per TaskManager stop: each run soaks a test build of the plugin ({@link LeakingPluginJar}) that
 * injects one such leak ({@code -Dflinks3.test.leak=...}), and its report must name the figure that grew. Six runs
 * of the short soak (about 20 minutes), so not part of {@code mvn verify}: run it with
 *
 * <pre>mvn -B -ntp verify -pl benchmark-job -Dit.test=SoakLeakIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false</pre>
 *
 * ({@code -Dsoak.leaks=thread-per-stop,connection-per-stop} runs those two). Each run's report is in {@code
 * target/soak-leak-<leak>/}, and the lines that failed each run in {@code
 * target/soak-leak-summary.md}.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class SoakLeakIT {

    /** The leaks to run, comma-separated (e.g. {@code thread-per-stop,connection-per-stop}); all without it. */
    static final String ONLY = "soak.leaks";

    private static final Path SUMMARY = LocalModeProcess.TARGET.resolve("soak-leak-summary.md");
    private static Path leakingJar;

    @BeforeAll
    static void buildTheLeakingPlugin() throws Exception {
        leakingJar = LeakingPluginJar.build(
                LocalModeProcess.ourPluginJar(),
                LocalModeProcess.TARGET.resolve("leaking-plugin/flinks3-leaking-plugin.jar"));
        Files.writeString(SUMMARY, "# The short soak with one leak injected\n\n");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "fd-per-checkpoint, 'open file descriptors (but connections to S3 and RocksDB''s database files) of minicluster rose'",
        "thread-per-checkpoint, 'threads (but Flink''s RPC dispatchers) of minicluster rose'",
        "connection-per-checkpoint, 'TCP connections to the S3 endpoint outside the plugin''s HTTP pools of minicluster rose'",
        "fd-per-stop, 'open file descriptors (but connections to S3 and RocksDB''s database files) of minicluster rose'",
        "thread-per-stop, 'threads (but Flink''s RPC dispatchers) of minicluster rose'",
        "connection-per-stop, 'TCP connections to the S3 endpoint outside the plugin''s HTTP pools of minicluster rose'"
    })
    void theShortSoakFailsOnTheFigureThatLeaks(String leak, String failure) throws Exception {
        String only = System.getProperty(ONLY, "").trim();
        Assumptions.assumeTrue(
                only.isEmpty() || List.of(only.split(",")).contains(leak), () -> leak + " is not in -D" + ONLY);
        Path output = LocalModeProcess.TARGET.resolve("soak-leak-" + leak);

        ShortSoak run = ShortSoak.run(output, leakingJar, List.of("-Dflinks3.test.leak=" + leak));

        String report = Files.readString(output.resolve(SoakReport.FILE));
        List<String> failed = report.lines().filter(l -> l.startsWith("- ")).toList();
        Files.writeString(
                SUMMARY,
                "## " + leak + ": exit code " + run.process().exitCode() + "\n\n" + String.join("\n", failed) + "\n\n",
                StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);
        assertThat(run.process().exitCode()).as(report).isEqualTo(1);
        assertThat(failed).as(report).anyMatch(line -> line.startsWith("- " + failure));
        assertThat(run.soak().jobs().get(0).verified())
                .as("nothing was lost: the leak, not the job, failed the soak")
                .isTrue();
    }
}
