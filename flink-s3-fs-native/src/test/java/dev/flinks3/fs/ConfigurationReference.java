package dev.flinks3.fs;

import dev.flinks3.transfer.options.Option;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ConfigOption;

/**
 * Writes {@code docs/configuration.md} from the option declarations: one table per section of {@link
 * S3ConfigOptions}, one row per option with every column of its declaration.
 */
final class ConfigurationReference {

    private ConfigurationReference() {}

    /** The whole page, Markdown. */
    static String markdown() {
        StringBuilder page = new StringBuilder();
        page.append("# Configuration reference\n\n")
                .append("<!-- Written from the option declarations (S3Options in transfer, FileSystemOptions in"
                        + " flink-s3-fs-native) by\n     ConfigurationReferenceTest: change a declaration, then run"
                        + " that test with -Dflinks3.reference.write=true. -->\n\n")
                .append("Every key goes into Flink's configuration (`conf/config.yaml`, or `-D` on the command"
                        + " line). The values are\nread once, when Flink configures the filesystem factories at"
                        + " process start, and checked there: a value\noutside its range stops the start with a"
                        + " message naming the key as you wrote it, the value (never for\nsecrets) and what is"
                        + " allowed.\n\n")
                .append("**Fallback keys.** Every key of Flink's `flink-s3-fs-native` 2.3.0 keeps its name and"
                        + " meaning. The spellings of\n`flink-s3-fs-hadoop` (`fs.s3a.*`, `s3a.*`, and the `s3.*`"
                        + " keys it mirrors to `fs.s3a.*`) and of\n`flink-s3-fs-presto` (`presto.s3.*` and the"
                        + " `s3.*` keys it mirrors) are fallback keys: a configuration written for\neither plugin"
                        + " works unchanged. When several spellings of one option are set, the key wins, then the"
                        + " fallback\nkeys in the order listed.\n\n")
                .append("**Per bucket.** `s3.bucket.<bucket>.<rest of the key>` (or S3A's"
                        + " `fs.s3a.bucket.<bucket>.<rest>`) sets a key\nfor the filesystems of one bucket only,"
                        + " over the global one.\nKeys that hold for the whole process are refused per bucket,"
                        + " naming the global\nkey: "
                        + S3Runtime.PROCESS_WIDE.stream()
                                .map(option -> "`" + option.key() + "`")
                                .collect(java.util.stream.Collectors.joining(", "))
                        + ".\n\n")
                .append("**Values.** Sizes are bytes or a number with unit (`5242880`, `64m`, `64 MB`); durations"
                        + " are milliseconds or\na number with unit (`30000`, `30 s`, `2 min`, `1h`); booleans are"
                        + " `true`/`false`; choices match in any case.\n");
        for (S3ConfigOptions.Section section : S3ConfigOptions.sections()) {
            page.append("\n## ")
                    .append(section.title())
                    .append("\n\n")
                    .append("| key | fallback keys | type | default | range or allowed values | description |\n")
                    .append("|---|---|---|---|---|---|\n");
            for (ConfigOption<?> option : section.options()) {
                page.append(row(S3ConfigOptions.declaration(option))).append('\n');
            }
        }
        return page.toString();
    }

    private static <T> String row(Option<T> option) {
        String fallbacks = option.fallbackKeys().isEmpty()
                ? "-"
                : option.fallbackKeys().stream().map(key -> "`" + key + "`").collect(Collectors.joining(", "));
        // A default the reading code computes is said in words; a plain value is code.
        boolean plain =
                option.defaultValue() != null && option.defaultText().equals(option.valueText(option.defaultValue()));
        String defaultValue = plain ? "`" + option.defaultText() + "`" : option.defaultText();
        List<String> values = option.allowedValues();
        String allowed = values.isEmpty()
                ? option.allowedText()
                : values.stream().map(value -> "`" + value + "`").collect(Collectors.joining(", "));
        return "| `" + option.key() + "` | " + fallbacks + " | " + option.kind().typeName() + " | " + cell(defaultValue)
                + " | " + cell(allowed) + (option.secret() ? " (secret)" : "") + " | " + cell(option.description())
                + " |";
    }

    /** A table cell: one line, a '|' escaped. */
    private static String cell(String text) {
        return text.replace("\n", " ").replace("|", "\\|");
    }
}
