package dev.flinks3.bench.checkpoint.local;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;

/** The command line a benchmark was started with, for its results, with secrets masked. */
public final class CommandLines {

    private static final Pattern SECRET = Pattern.compile("secret|password|token|credential");

    private CommandLines() {}

    /** {@code java -jar flinks3-benchmark-job.jar <args>}, any {@code -Dkey=value} with a secret-like key masked. */
    public static String describe(CommandSpec spec) {
        List<String> words = new ArrayList<>(List.of("java", "-jar", "flinks3-benchmark-job.jar"));
        for (String arg : spec.commandLine().getParseResult().originalArgs()) {
            words.add(mask(arg));
        }
        return String.join(" ", words);
    }

    static String mask(String arg) {
        int equals = arg.indexOf('=');
        if (equals > 0
                && SECRET.matcher(arg.substring(0, equals).toLowerCase(Locale.ROOT))
                        .find()) {
            return arg.substring(0, equals + 1) + "****";
        }
        return arg;
    }
}
