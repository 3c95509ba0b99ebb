package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.transfer.options.Option;
import dev.flinks3.transfer.options.S3Options;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A key is spelled once, in its declaration ({@link S3Options}, {@link FileSystemOptions}): the main code of the
 * plugin's modules (transfer, multipart, recoverable-writer, flink-s3-fs-native) has no string literal holding a key
 * or a fallback key elsewhere (a message takes the key from the declaration), and every key its comments name is a
 * declared one.
 */
@Timeout(30)
class KeysInCodeTest {

    private static final List<String> MODULES =
            List.of("transfer", "multipart", "recoverable-writer", "flink-s3-fs-native");

    /** Where keys are spelled: the declarations, and the spelling rules. */
    private static final Set<String> DECLARING =
            Set.of("S3Options.java", "FileSystemOptions.java", "KeySpellings.java");

    /** What looks like a key of one of the S3 plugins' prefixes. */
    private static final Pattern KEY_LIKE = Pattern.compile(
            "(?<![A-Za-z0-9_.-])(?:fs\\.s3a?|s3a?|presto\\.s3)\\.[a-z][a-z0-9-]*(?:\\.[a-z0-9][a-z0-9-]*)*");

    /**
     * Keys of the prefixes that are not options: per-bucket keys (their bucket follows), and Flink's own priority
     * and connection-limit keys of a scheme.
     */
    private static final List<String> NOT_OPTIONS =
            List.of("s3.bucket", "s3a.bucket", "fs.s3a.bucket", "fs.s3.priority", "fs.s3a.priority", "fs.s3a.limit");

    @Test
    void noStringLiteralSpellsAKeyOutsideItsDeclaration() {
        Set<String> keys = declaredKeys();
        List<String> spelled = new ArrayList<>();
        for (Path file : sources()) {
            if (DECLARING.contains(file.getFileName().toString())) {
                continue;
            }
            for (String literal : JavaText.of(read(file)).literals) {
                Matcher m = KEY_LIKE.matcher(literal);
                while (m.find()) {
                    if (keys.contains(m.group())) {
                        spelled.add(file.getFileName() + ": \"" + literal + "\"");
                    }
                }
            }
        }
        assertThat(spelled)
                .as("string literals naming a key; take it from its declaration")
                .isEmpty();
    }

    @Test
    void everyKeyACommentNamesIsDeclared() {
        Set<String> keys = declaredKeys();
        List<String> unknown = new ArrayList<>();
        for (Path file : sources()) {
            for (String comment : JavaText.of(read(file)).comments) {
                Matcher m = KEY_LIKE.matcher(comment);
                while (m.find()) {
                    String key = m.group();
                    // "s3.sse.*" names the keys under a prefix; "s3.eu-west-1.amazonaws.com" is a host
                    boolean prefix =
                            comment.startsWith(".*", m.end()) && keys.stream().anyMatch(k -> k.startsWith(key + "."));
                    boolean host = key.endsWith(".com");
                    if (!keys.contains(key)
                            && !prefix
                            && !host
                            && NOT_OPTIONS.stream().noneMatch(key::startsWith)) {
                        unknown.add(file.getFileName() + ": " + key);
                    }
                }
            }
        }
        assertThat(unknown).as("keys named in comments that no option declares").isEmpty();
    }

    /** The scan finds what it looks for: a literal with a key, and a comment's key that is declared nowhere. */
    @Test
    void theScanSeesLiteralsAndComments() {
        JavaText text = JavaText.of("/** uses {@code s3.api-call-attempt-timeout} */ class A {"
                + " String s = \"set s3.client: crt\"; char c = '\"'; // s3.path-style-access\n }");

        assertThat(text.literals).containsExactly("set s3.client: crt");
        assertThat(text.comments)
                .containsExactly("/** uses {@code s3.api-call-attempt-timeout} */", "// s3.path-style-access");
        assertThat(declaredKeys())
                .contains("s3.client", "fs.s3a.path.style.access")
                .doesNotContain("s3.api-call-attempt-timeout");
    }

    private static Set<String> declaredKeys() {
        Set<String> keys = new HashSet<>();
        for (Option<?> option : allDeclarations()) {
            keys.add(option.key());
            keys.addAll(option.fallbackKeys());
        }
        return keys;
    }

    private static List<Option<?>> allDeclarations() {
        List<Option<?>> all = new ArrayList<>(S3Options.all());
        all.addAll(FileSystemOptions.all());
        return all;
    }

    private static List<Path> sources() {
        Path root = RepositoryRoot.find();
        List<Path> files = new ArrayList<>();
        for (String module : MODULES) {
            try (Stream<Path> walk = Files.walk(root.resolve(module).resolve("src/main/java"))) {
                files.addAll(walk.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertThat(files).hasSizeGreaterThan(100);
        return files;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The string literals (text blocks too, without quotes) and the comments (with their markers) of Java code. */
    static final class JavaText {
        final List<String> literals = new ArrayList<>();
        final List<String> comments = new ArrayList<>();

        static JavaText of(String source) {
            JavaText text = new JavaText();
            int i = 0;
            int n = source.length();
            while (i < n) {
                char c = source.charAt(i);
                if (source.startsWith("//", i)) {
                    int end = source.indexOf('\n', i);
                    end = end < 0 ? n : end;
                    text.comments.add(source.substring(i, end));
                    i = end;
                } else if (source.startsWith("/*", i)) {
                    int end = source.indexOf("*/", i + 2);
                    end = end < 0 ? n : end + 2;
                    text.comments.add(source.substring(i, end));
                    i = end;
                } else if (source.startsWith("\"\"\"", i)) {
                    int end = source.indexOf("\"\"\"", i + 3);
                    end = end < 0 ? n : end;
                    text.literals.add(source.substring(i + 3, end));
                    i = end + 3;
                } else if (c == '"' || c == '\'') {
                    int j = i + 1;
                    StringBuilder literal = new StringBuilder();
                    while (j < n && source.charAt(j) != c) {
                        if (source.charAt(j) == '\\' && j + 1 < n) {
                            literal.append(source.charAt(j)).append(source.charAt(j + 1));
                            j += 2;
                        } else {
                            literal.append(source.charAt(j++));
                        }
                    }
                    if (c == '"') {
                        text.literals.add(literal.toString());
                    }
                    i = j + 1;
                } else {
                    i++;
                }
            }
            return text;
        }
    }
}
