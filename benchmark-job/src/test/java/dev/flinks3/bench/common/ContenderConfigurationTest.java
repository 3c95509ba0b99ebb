package dev.flinks3.bench.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ContenderConfigurationTest {

    @Test
    void groupsEntriesByContenderKeepingValuesWithColonsAndEquals() {
        Map<String, Map<String, String>> conf = ContenderConfiguration.parse(
                List.of("ours-crt:s3.client=crt", "ours-crt:s3.endpoint=http://127.0.0.1:9000", "native:a=b=c"));

        assertThat(conf).containsOnlyKeys("ours-crt", "native");
        assertThat(conf.get("ours-crt"))
                .containsExactly(Map.entry("s3.client", "crt"), Map.entry("s3.endpoint", "http://127.0.0.1:9000"));
        assertThat(conf.get("native")).containsExactly(Map.entry("a", "b=c"));
    }

    @Test
    void rejectsAnEntryWithoutContenderOrKey() {
        for (String bad : List.of("s3.client=crt", ":s3.client=crt", "ours:=crt", "ours:s3.client")) {
            assertThatThrownBy(() -> ContenderConfiguration.parse(List.of(bad)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + bad + "'")
                    .hasMessageContaining("NAME:KEY=VALUE");
        }
    }
}
