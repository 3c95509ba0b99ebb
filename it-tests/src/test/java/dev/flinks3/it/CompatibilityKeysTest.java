package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.it.security.CapturedLogs;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The keys of Flink's native S3 plugin that this plugin accepts only for compatibility ({@code
 * s3.read.buffer.size}, {@code s3.async.enabled}, {@code s3.client.close.timeout}) are accepted, and a
 * value that asks for what is not done is named in one warning, and in no other line of any level; the spellings some configurations
 * written for that plugin use ({@code s3.upload.part.size}, {@code s3.async-client.max-concurrency})
 * are read, so they draw no warning at all.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CompatibilityKeysTest {

    private static final Map<String, String> COMPATIBILITY_ONLY = Map.of(
            "s3.read.buffer.size", "1048576",
            "s3.async.enabled", "false",
            "s3.client.close.timeout", "5 s");
    private static final Map<String, String> READ_SPELLINGS = Map.of(
            "s3.upload.part.size", "16 mb",
            "s3.async-client.max-concurrency", "100");

    @Test
    void compatibilityKeysAreAcceptedAndEachIsNamedInOneWarning() throws Exception {
        Configuration configuration = SharedS3ProxyTarget.flinkConfiguration();
        COMPATIBILITY_ONLY.forEach(configuration::setString);
        READ_SPELLINGS.forEach(configuration::setString);

        List<CapturedLogs.Event> warnings;
        List<CapturedLogs.Event> naming;
        try (CapturedLogs all = CapturedLogs.capture("dev.flinks3")) {
            FileSystem.initialize(configuration, null);
            FileSystem fs = FileSystem.get(URI.create("s3://" + SharedS3ProxyTarget.bucket() + "/"));
            assertThat(fs.exists(new Path("s3://" + SharedS3ProxyTarget.bucket() + "/no-such-key")))
                    .isFalse();
            warnings = all.events().stream()
                    .filter(e -> e.logger().equals("dev.flinks3.fs.S3FileSystemSettings") && e.level() == Level.WARN)
                    .toList();
            naming = all.events().stream()
                    .filter(e -> COMPATIBILITY_ONLY.keySet().stream()
                            .anyMatch(k -> e.text().contains("'" + k + "'")))
                    .toList();
            assertThat(all.events())
                    .as("warnings about unknown keys")
                    .noneMatch(e -> e.logger().equals("dev.flinks3.fs.UnknownKeys") && e.level() == Level.WARN);
        } finally {
            FileSystem.initialize(new Configuration(), null);
        }

        assertThat(warnings)
                .as("one warning per key, for the s3 and s3a factories together")
                .hasSize(COMPATIBILITY_ONLY.size());
        for (String key : COMPATIBILITY_ONLY.keySet()) {
            assertThat(warnings)
                    .as(key)
                    .filteredOn(w -> w.text().contains("'" + key + "'"))
                    .hasSize(1);
        }
        for (String key : READ_SPELLINGS.keySet()) {
            assertThat(warnings).noneMatch(w -> w.text().contains(key));
        }
        assertThat(naming)
                .as("each key reported once, at one level: no other line of the plugin names it")
                .containsExactlyInAnyOrderElementsOf(warnings);
    }
}
