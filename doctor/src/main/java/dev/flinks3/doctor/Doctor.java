package dev.flinks3.doctor;

import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.aws.S3Credentials;
import dev.flinks3.transfer.sdk.S3ClientOwner;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code doctor}: checks a Flink configuration against a real bucket before a job relies on it, and says per check
 * whether it works (ok), works but a setting should change (warning, naming the switch), or does not (failure,
 * naming the fix). It reads the {@code config.yaml} the cluster reads and builds everything with the plugin's own
 * code: its settings factory, credentials, object client and probes.
 *
 * <pre>java -jar flinks3-doctor.jar --conf $FLINK_HOME/conf/config.yaml s3://bucket/checkpoints</pre>
 *
 * <p>Exit codes: {@value Report#EXIT_OK} every check ok, {@value Report#EXIT_WARNINGS} warnings only, {@value
 * Report#EXIT_FAILURES} at least one failure, {@value Report#EXIT_USAGE} the command line or the configuration
 * file could not be used. Never prints a secret.
 */
@Command(
        name = "doctor",
        mixinStandardHelpOptions = true,
        versionProvider = Doctor.Version.class,
        sortOptions = false,
        description = {
            "Checks a Flink configuration of the flinks3 S3 plugin against a real bucket: the settings as the plugin"
                    + " reads them, the credentials, the network path, what the store allows and supports (probes"
                    + " under a temporary prefix, removed afterwards), and a short throughput probe.",
            ""
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every check ok",
            "1:warnings (a setting to change), no failure",
            "2:at least one check failed",
            "3:the command line or the configuration could not be used"
        })
public final class Doctor implements Callable<Integer> {

    @Parameters(
            index = "0",
            paramLabel = "LOCATION",
            description = "Where the job writes, e.g. s3://bucket/checkpoints (s3:// or s3a://).")
    URI target;

    @Option(
            names = {"-c", "--conf"},
            paramLabel = "FILE",
            description = "Flink's config.yaml, or the folder holding it (default: $FLINK_CONF_DIR, else"
                    + " $FLINK_HOME/conf).")
    Path conf;

    @Option(
            names = "-D",
            paramLabel = "KEY=VALUE",
            description = "A configuration key given on top of the file, as Flink's -D does.")
    Map<String, String> dynamic = new LinkedHashMap<>();

    @Option(names = "--json", description = "Print the report as one JSON document.")
    boolean json;

    @Option(names = "--no-throughput", description = "Leave out the throughput probe (about 64 MiB sent and read).")
    boolean noThroughput;

    private final PrintWriter out;

    Doctor(PrintWriter out) {
        this.out = out;
    }

    /** Runs the command and exits with its code. */
    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true, StandardCharsets.UTF_8), args));
    }

    /** Runs the command, writing to {@code out}, and returns its exit code. */
    static int run(PrintWriter out, String... args) {
        CommandLine command = new CommandLine(new Doctor(out));
        command.setOut(out);
        command.setParameterExceptionHandler((e, a) -> {
            e.getCommandLine().getErr().println(e.getMessage());
            e.getCommandLine().usage(e.getCommandLine().getErr());
            return Report.EXIT_USAGE;
        });
        return command.execute(args);
    }

    @Override
    public Integer call() {
        Optional<Path> confDir = confDir();
        if (confDir.isEmpty()) {
            System.err.println("No configuration: give --conf <config.yaml>, or set FLINK_CONF_DIR or FLINK_HOME");
            return Report.EXIT_USAGE;
        }
        S3Location location;
        try {
            location = S3Location.of(target);
        } catch (IllegalArgumentException e) {
            System.err.println("Not an s3:// or s3a:// location: " + target + " (" + e.getMessage() + ")");
            return Report.EXIT_USAGE;
        }
        Configuration configuration;
        try {
            configuration =
                    GlobalConfiguration.loadConfiguration(confDir.get().toString(), Configuration.fromMap(dynamic));
        } catch (RuntimeException e) {
            System.err.println("Cannot read the configuration in " + confDir.get() + ": " + e.getMessage());
            return Report.EXIT_USAGE;
        }
        Report report = new Report(
                version(), target.toString(), confDir.get().toAbsolutePath().toString());
        Optional<S3Settings> settings = ConfigurationChecks.run(report, configuration, confDir.get(), version());
        if (settings.isPresent()) {
            Optional<S3Credentials> credentials = CredentialChecks.run(report, settings.get());
            NetworkChecks.run(report, settings.get());
            if (credentials.isPresent()) {
                probeStore(report, settings.get(), credentials.get(), location);
            }
        }
        if (json) {
            report.printJson(out);
        } else {
            report.printText(out);
        }
        return report.exitCode();
    }

    private void probeStore(Report report, S3Settings settings, S3Credentials credentials, S3Location location) {
        try (S3ClientOwner owner = new S3ClientOwner(settings);
                S3Client raw = rawClient(settings, credentials, owner.region())) {
            new StoreProbes(report, owner.objectClient(), raw, settings, location, !noThroughput).run();
        } catch (IOException | RuntimeException e) {
            report.add(Check.failure(
                    StoreProbes.SECTION,
                    "client",
                    "the plugin's S3 client could not be built: " + CredentialChecks.firstLine(e.getMessage()),
                    "see the configuration and network checks"));
        } finally {
            try {
                credentials.close();
            } catch (IOException ignored) {
                // nothing held that outlives the process
            }
        }
    }

    /**
     * A plain SDK client on the same endpoint, region, addressing and credentials, for the probes that need to
     * see an answer the plugin's client handles itself; checksums only where a request asks for one.
     */
    static S3Client rawClient(S3Settings settings, S3Credentials credentials, Region region) {
        Apache5HttpClient.Builder http = Apache5HttpClient.builder().connectionTimeout(Duration.ofSeconds(10));
        try {
            javax.net.ssl.TrustManager[] trust = NetworkChecks.trustManagers(settings);
            http.tlsTrustManagersProvider(() -> trust);
        } catch (Exception e) {
            throw new IllegalArgumentException("cannot load the trusted CAs: " + e.getMessage(), e);
        }
        var builder = S3Client.builder()
                .httpClientBuilder(http)
                .region(region)
                .credentialsProvider(credentials.provider())
                .forcePathStyle(settings.client().pathStyleAccess())
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .apiCallTimeout(Duration.ofSeconds(60))
                        .build());
        if (settings.client().endpoint() != null) {
            builder.endpointOverride(settings.client().endpoint());
        }
        return builder.build();
    }

    private Optional<Path> confDir() {
        if (conf != null) {
            return Optional.of(
                    Files.isDirectory(conf) ? conf : conf.toAbsolutePath().getParent());
        }
        String confEnv = System.getenv("FLINK_CONF_DIR");
        if (confEnv != null && !confEnv.isBlank()) {
            return Optional.of(Path.of(confEnv));
        }
        String home = System.getenv("FLINK_HOME");
        return home == null || home.isBlank() ? Optional.empty() : Optional.of(Path.of(home, "conf"));
    }

    /** This build's version, from the jar's resources. */
    static String version() {
        return buildProperty("version");
    }

    /** A value the build wrote into the jar: {@code version}, or {@code flink} (the Flink classes it carries). */
    static String buildProperty(String name) {
        try (InputStream in = Doctor.class.getResourceAsStream("/flinks3-doctor.properties")) {
            Properties properties = new Properties();
            if (in != null) {
                properties.load(in);
            }
            return properties.getProperty(name, "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** Gives picocli's {@code --version} this build's version. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"flinks3 doctor " + Doctor.version()};
        }
    }
}
