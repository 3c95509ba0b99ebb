package dev.flinks3.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * The benchmark jar run in this JVM on a user's mistakes: each gets one line on standard error naming
 * the option or URL and what was expected, no stack trace, and exit code 2, before anything is started
 * or submitted.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BenchmarkCliErrorsTest {

    @TempDir
    static Path work;

    /** A loopback URL nothing listens at: a port that was free a moment ago. */
    private static String closedUrl;

    @BeforeAll
    static void findAClosedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            closedUrl = "http://127.0.0.1:" + socket.getLocalPort();
        }
    }

    /** Each bad command line and a piece of the one line it must print. */
    static Stream<Arguments> mistakes() {
        String output = work.resolve("out").toString();
        return Stream.of(
                Arguments.of(List.of("local", "--num-keys", "many"), "--num-keys"),
                Arguments.of(List.of("local", "--num-keys", "0"), "--num-keys must be positive"),
                Arguments.of(List.of("local", "--checkpoint-interval", "soon"), "--checkpoint-interval"),
                Arguments.of(List.of("local", "--no-such-option"), "--no-such-option"),
                Arguments.of(
                        List.of("local", "--s3-profile", "moon"),
                        "--s3-profile: Unknown network profile 'moon': expected lan, wan or rescale"),
                Arguments.of(List.of("local", "--contender", "nobody"), "unknown contender 'nobody'"),
                Arguments.of(
                        List.of("local", "--endpoint", closedUrl), "--endpoint " + closedUrl + ": nothing answers"),
                Arguments.of(
                        List.of("local", "--endpoint", "s3.example.com"),
                        "--endpoint s3.example.com: expected an http"),
                Arguments.of(List.of("compare", "--rounds", "0"), "--rounds must be at least 1"),
                Arguments.of(List.of("compare", "--s3-faults", "2"), "--s3-faults"),
                Arguments.of(List.of("compare", "--conf", "no-colon"), "--conf"),
                Arguments.of(
                        List.of("cluster", "--rest-url", closedUrl), "--rest-url " + closedUrl + ": nothing answers"),
                Arguments.of(
                        List.of(
                                "report",
                                "--results",
                                work.resolve("absent.json").toString(),
                                "--output",
                                output),
                        "--results " + work.resolve("absent.json") + ": no such file"),
                Arguments.of(
                        List.of("report", "--rest-url", closedUrl, "--job-id", "0", "--output", output),
                        "--rest-url " + closedUrl + ": nothing answers"),
                Arguments.of(List.of("report", "--output", output), "--results"),
                Arguments.of(
                        List.of("fsbench", "--s3-profile", "moon"), "--s3-profile: Unknown network profile 'moon'"),
                Arguments.of(List.of("fsbench", "--contenders", "nobody"), "unknown contender 'nobody'"),
                Arguments.of(List.of("fsbench", "--rounds", "0"), "--rounds must be at least 1"),
                Arguments.of(List.of("fsbench", "--workloads", "EVERYTHING"), "--workloads"),
                Arguments.of(
                        List.of("fsbench", "--server-storage", "floppy"),
                        "--server-storage must be auto, tmpfs or disk, was 'floppy'"),
                Arguments.of(
                        List.of("local", "--server-storage", "floppy"),
                        "--server-storage must be auto, tmpfs or disk, was 'floppy'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void aMistakeIsOneLineAndExitCodeTwo(List<String> args, String expected) {
        Run run = run(args.toArray(String[]::new));

        assertThat(run.exitCode).as(run.err).isEqualTo(2);
        assertThat(run.err.lines())
                .as(run.err)
                .singleElement()
                .asString()
                .contains(expected)
                .doesNotContain("Exception");
    }

    @Test
    void versionIsPrinted() {
        Run run = run("--version");

        assertThat(run.exitCode).isZero();
        assertThat(run.out).startsWith("flinks3-benchmark-job ");
    }

    @Test
    void aFailureThatIsNoUsersMistakeKeepsItsStackTrace() {
        CommandLine commandLine = BenchmarkCli.commandLine().addSubcommand("explode", new Explode());
        StringWriter err = new StringWriter();
        commandLine.setErr(new PrintWriter(err));

        int exitCode = commandLine.execute("explode");

        assertThat(exitCode).isEqualTo(1);
        assertThat(err.toString())
                .contains("java.lang.IllegalStateException: a bug")
                .contains("\tat ");
    }

    @CommandLine.Command(name = "explode")
    static final class Explode implements java.util.concurrent.Callable<Integer> {
        @Override
        public Integer call() {
            throw new IllegalStateException("a bug");
        }
    }

    private record Run(int exitCode, String out, String err) {}

    private static Run run(String... args) {
        CommandLine commandLine = BenchmarkCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        int exitCode = commandLine.execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }
}
