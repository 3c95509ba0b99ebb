package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ConfigOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code docs/configuration.md} is what the option declarations say ({@link ConfigurationReference}): the test fails
 * with the difference when one of them changed and the page did not. {@code -Dflinks3.reference.write=true} rewrites
 * the page instead.
 */
@Timeout(30)
class ConfigurationReferenceTest {

    private static final String WRITE = "flinks3.reference.write";

    @Test
    void theReferenceIsWhatTheDeclarationsSay() throws IOException {
        Path page = RepositoryRoot.find().resolve("docs/configuration.md");
        String expected = ConfigurationReference.markdown();
        if (Boolean.getBoolean(WRITE)) {
            Files.writeString(page, expected, StandardCharsets.UTF_8);
        }
        String actual = Files.isRegularFile(page) ? Files.readString(page, StandardCharsets.UTF_8) : "";

        assertThat(actual)
                .as(
                        "docs/configuration.md differs from the declarations (- page, + declarations); rewrite it with"
                                + " mvn -pl flink-s3-fs-native test -Dtest=ConfigurationReferenceTest -D%s=true%n%s",
                        WRITE,
                        diff(
                                actual.lines().collect(Collectors.toList()),
                                expected.lines().collect(Collectors.toList())))
                .isEqualTo(expected);
    }

    @Test
    void everyOptionHasOneRow() {
        String page = ConfigurationReference.markdown();
        for (ConfigOption<?> option : S3ConfigOptions.all()) {
            assertThat(page.lines().filter(line -> line.startsWith("| `" + option.key() + "` |")))
                    .as(option.key())
                    .hasSize(1);
        }
        assertThat(S3ConfigOptions.sections().stream()
                        .mapToInt(s -> s.options().size())
                        .sum())
                .isEqualTo(S3ConfigOptions.all().size());
    }

    /** The storage classes whose objects must be restored before a read are refused, so not listed as allowed. */
    @Test
    void theReferenceListsOnlyTheStorageClassesTheFactoryTakes() {
        String row = ConfigurationReference.markdown()
                .lines()
                .filter(line -> line.startsWith("| `s3.storage-class` |"))
                .findFirst()
                .orElseThrow();
        String allowed = row.split(" \\| ")[4];

        assertThat(allowed).contains("`STANDARD`", "`GLACIER_IR`").doesNotContain("`GLACIER`", "`DEEP_ARCHIVE`");
    }

    /** The lines that differ, as a unified diff without context: {@code -} only in the page, {@code +} only expected. */
    static String diff(List<String> actual, List<String> expected) {
        int[][] common = new int[actual.size() + 1][expected.size() + 1];
        for (int i = actual.size() - 1; i >= 0; i--) {
            for (int j = expected.size() - 1; j >= 0; j--) {
                common[i][j] = actual.get(i).equals(expected.get(j))
                        ? common[i + 1][j + 1] + 1
                        : Math.max(common[i + 1][j], common[i][j + 1]);
            }
        }
        List<String> lines = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < actual.size() || j < expected.size()) {
            if (i < actual.size() && j < expected.size() && actual.get(i).equals(expected.get(j))) {
                i++;
                j++;
            } else if (j < expected.size() && (i == actual.size() || common[i][j + 1] >= common[i + 1][j])) {
                lines.add("+" + expected.get(j++));
            } else {
                lines.add("-" + actual.get(i++));
            }
        }
        return String.join("\n", lines);
    }
}
