package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.FallbackKey;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The README's table of configuration keys says what {@link S3ConfigOptions} declares, so the one
 * declaration of each setting and its documentation cannot drift apart: one row per option and no row
 * without one, each naming exactly the option's fallback keys.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(10)
class ReadmeOptionsTableTest {

    private static final String HEADER = "| key | fallback keys | default | range | meaning |";

    private static final Pattern QUOTED = Pattern.compile("`([^`]+)`");

    /** Rows of the table by key: the cells after the key. */
    private final Map<String, List<String>> rows = new LinkedHashMap<>();

    @BeforeAll
    void readTheTable() throws IOException {
        List<String> lines = Files.readAllLines(readme());
        int start = lines.indexOf(HEADER);
        assertThat(start).as("the README's options table, headed %s", HEADER).isNotNegative();
        for (int i = start + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            List<String> cells = cells(lines.get(i));
            rows.put(unquote(cells.get(0)), cells.subList(1, cells.size()));
        }
    }

    @Test
    void everyOptionHasARowAndEveryRowAnOption() {
        List<String> declared =
                S3ConfigOptions.all().stream().map(ConfigOption::key).collect(Collectors.toList());

        assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(declared);
    }

    @Test
    void eachRowNamesExactlyTheOptionsFallbackKeys() {
        List<String> wrong = new ArrayList<>();
        for (ConfigOption<?> option : S3ConfigOptions.all()) {
            List<String> row = rows.get(option.key());
            if (row == null) {
                continue;
            }
            Set<String> declared = new TreeSet<>();
            for (FallbackKey fallback : option.fallbackKeys()) {
                declared.add(fallback.getKey());
            }
            Set<String> documented = new TreeSet<>();
            Matcher quoted = QUOTED.matcher(row.get(0));
            while (quoted.find()) {
                documented.add(quoted.group(1));
            }
            if (!documented.equals(declared)) {
                wrong.add(option.key() + ": README names " + documented + ", declared " + declared);
            }
        }
        assertThat(wrong).isEmpty();
    }

    private static List<String> cells(String row) {
        String inner = row.substring(1, row.length() - (row.endsWith("|") ? 1 : 0));
        List<String> cells = new ArrayList<>();
        for (String cell : inner.split("\\|", -1)) {
            cells.add(cell.trim());
        }
        return cells;
    }

    private static String unquote(String cell) {
        return cell.startsWith("`") && cell.endsWith("`") ? cell.substring(1, cell.length() - 1) : cell;
    }

    /** The repository's README.md, found from the module's folder (where the tests run) or its parent. */
    private static Path readme() {
        Path here = Paths.get("").toAbsolutePath();
        for (Path dir = here; dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("README.md");
            if (Files.isRegularFile(candidate)
                    && Files.isRegularFile(dir.resolve("pom.xml"))
                    && Files.isDirectory(dir.resolve("flink-s3-fs-native"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("no README.md of the repository above " + here);
    }
}
