package dev.flinks3.doctor;

import dev.flinks3.fs.S3ConfigOptions;
import dev.flinks3.fs.S3SettingsFactory;
import dev.flinks3.fs.UnknownKeys;
import dev.flinks3.transfer.S3Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.configuration.IllegalConfigurationException;

/**
 * The configuration as the plugin reads it: the versions, every {@code s3.*} option set with the key it was read
 * from (the presto and hadoop plugins' spellings are fallback keys of the plugin's options), keys under the
 * plugin's prefixes that nothing reads (with the nearest known key), the S3 plugins installed beside the
 * configuration, and the plugin's own {@link S3SettingsFactory} building its settings, which fails naming the key
 * and the allowed values exactly as the filesystem would at start-up.
 */
final class ConfigurationChecks {

    static final String SECTION = "configuration";
    private static final Pattern FLINK_DIST =
            Pattern.compile("flink-dist[^-]*-(\\d+\\.\\d+(?:\\.\\d+)?(?:-\\w+)?)\\.jar");

    private ConfigurationChecks() {}

    /**
     * Runs the checks on {@code configuration}, read from {@code confDir}.
     *
     * @return the plugin's settings, or empty if the factory refused the configuration (a failure is reported)
     */
    static Optional<S3Settings> run(Report report, Configuration configuration, Path confDir, String doctorVersion) {
        report.add(Check.ok(SECTION, "versions", versions(confDir, doctorVersion)));
        installedPlugins(report, confDir);
        Map<String, String> keys = configuration.toMap();
        int set = 0;
        for (ConfigOption<?> option : S3ConfigOptions.all()) {
            Optional<String> from = keyOf(option, keys);
            if (from.isEmpty()) {
                continue;
            }
            set++;
            String value = S3ConfigOptions.secret(option)
                    ? "(secret, " + keys.get(from.get()).length() + " characters)"
                    : keys.get(from.get());
            String source = from.get().equals(option.key()) ? "" : " (read from " + from.get() + ")";
            report.add(Check.ok(SECTION, option.key(), value + source));
        }
        if (set == 0) {
            report.add(Check.warning(
                    SECTION,
                    "s3 options",
                    "no s3.* option is set: the plugin runs on its defaults and the AWS default chains",
                    "set " + S3ConfigOptions.ENDPOINT.key() + ", " + S3ConfigOptions.REGION.key()
                            + " and credentials in config.yaml unless the defaults are meant"));
        }
        SortedSet<String> unknown = UnknownKeys.unknown(keys.keySet());
        for (String key : unknown) {
            String nearest = nearest(key, UnknownKeys.known());
            report.add(Check.warning(
                    SECTION,
                    "unknown key " + key,
                    "no option of the plugin reads it",
                    nearest == null ? "remove it" : "did you mean " + nearest + "?"));
        }
        try {
            S3Settings settings = S3SettingsFactory.create(configuration);
            report.add(Check.ok(SECTION, "settings", "the plugin accepts the configuration"));
            return Optional.of(settings);
        } catch (IllegalConfigurationException | IllegalArgumentException e) {
            report.add(Check.failure(
                    SECTION,
                    "settings",
                    "the plugin refuses the configuration: " + e.getMessage(),
                    "change the key it names"));
            return Optional.empty();
        }
    }

    /** The key of {@code option} (or of one of its fallback keys) that is set, the option's own first. */
    static Optional<String> keyOf(ConfigOption<?> option, Map<String, String> keys) {
        if (keys.containsKey(option.key())) {
            return Optional.of(option.key());
        }
        for (FallbackKey fallback : option.fallbackKeys()) {
            if (keys.containsKey(fallback.getKey())) {
                return Optional.of(fallback.getKey());
            }
        }
        return Optional.empty();
    }

    /** The known key nearest to {@code key} by edit distance, if within a third of its length; else null. */
    static String nearest(String key, SortedSet<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int distance = distance(key, candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return bestDistance <= Math.max(2, key.length() / 3) ? best : null;
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    private static String versions(Path confDir, String doctorVersion) {
        String flink = Doctor.buildProperty("flink");
        String installed = flinkDistVersion(confDir)
                .map(v -> "; the installation's Flink " + v)
                .orElse("");
        return "plugin (doctor) " + doctorVersion + ", Flink classes " + flink + installed + ", Java "
                + System.getProperty("java.version");
    }

    /** The version of {@code lib/flink-dist-*.jar} beside the configuration folder, if there is one. */
    private static Optional<String> flinkDistVersion(Path confDir) {
        Path lib = confDir.toAbsolutePath().resolveSibling("lib");
        if (!Files.isDirectory(lib)) {
            return Optional.empty();
        }
        try (Stream<Path> jars = Files.list(lib)) {
            return jars.map(jar -> FLINK_DIST.matcher(jar.getFileName().toString()))
                    .filter(Matcher::matches)
                    .map(m -> m.group(1))
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The S3 filesystem plugins under {@code plugins/} beside the configuration folder: more than one competes. */
    private static void installedPlugins(Report report, Path confDir) {
        Path plugins = confDir.toAbsolutePath().resolveSibling("plugins");
        if (!Files.isDirectory(plugins)) {
            return;
        }
        List<String> s3Plugins = new ArrayList<>();
        try (Stream<Path> files = Files.walk(plugins, 2)) {
            for (Path jar : files.filter(p -> p.toString().endsWith(".jar")).collect(Collectors.toList())) {
                String name = jar.getFileName().toString();
                if (name.contains("s3") || name.contains("flinks3")) {
                    s3Plugins.add(plugins.relativize(jar).toString());
                }
            }
        } catch (IOException e) {
            return;
        }
        if (s3Plugins.size() > 1) {
            report.add(Check.warning(
                    "configuration",
                    "plugins",
                    "several S3 filesystem plugins are installed: " + s3Plugins,
                    "keep one folder under plugins/ for s3:// (Flink picks one factory per scheme)"));
        } else if (!s3Plugins.isEmpty()) {
            report.add(Check.ok("configuration", "plugins", "installed: " + s3Plugins));
        }
    }
}
