package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.it.security.CapturedLogs;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 12: a key under the plugin's prefixes that no option reads (a typo, a renamed key, a key of
 * another S3 plugin this one does not take) is named in one warning when Flink configures the
 * filesystem factories, for {@code s3://} and {@code s3a://} together; the fallback spellings of the
 * other plugins and Flink's own keys under the same prefixes are not.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnknownKeysWarningTest {

    private static final List<String> UNKNOWN =
            List.of("s3.upload.min-part-size", "fs.s3a.fast.upload.buffer", "presto.s3.staging-directory");
    private static final Map<String, String> KNOWN = Map.of(
            "fs.s3a.multipart.size", "16M",
            "presto.s3.max-connections", "32",
            "s3a.connection.maximum", "32",
            "s3.path.style.access", "true",
            "s3.entropy.key", "_entropy_",
            "fs.s3a.priority.dev.flinks3.fs.S3AFileSystemFactory", "10",
            "fs.s3.priority.dev.flinks3.fs.S3FileSystemFactory", "10");

    @Test
    void unknownKeysAreNamedInOneWarningAndKnownSpellingsAreNot() throws Exception {
        Configuration configuration = SharedS3ProxyTarget.flinkConfiguration();
        KNOWN.forEach(configuration::setString);
        UNKNOWN.forEach(key -> configuration.setString(key, "1"));

        List<CapturedLogs.Event> warnings;
        try (CapturedLogs logs = CapturedLogs.capture("dev.flinks3.fs.UnknownKeys")) {
            FileSystem.initialize(configuration, null);
            warnings =
                    logs.events().stream().filter(e -> e.level() == Level.WARN).toList();
        } finally {
            FileSystem.initialize(new Configuration(), null);
        }

        assertThat(warnings)
                .as("warnings for the s3 and s3a factories together")
                .hasSize(1);
        String warning = warnings.get(0).text();
        assertThat(warning).contains(UNKNOWN);
        for (String known : KNOWN.keySet()) {
            assertThat(warning).doesNotContain(known);
        }
        assertThat(warning).doesNotContain("16M");
    }
}
