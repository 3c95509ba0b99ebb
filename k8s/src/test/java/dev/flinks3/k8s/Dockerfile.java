package dev.flinks3.k8s;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Dockerfile read as the builder reads it, for checks that need no Docker: global build
 * arguments with their defaults, stages ({@code FROM image AS name}), and the files each stage
 * puts into the image by {@code COPY} or by {@code cp} in a {@code RUN}.
 */
final class Dockerfile {

    /** A file a stage puts into the image: where it comes from (build context or image) and its path there. */
    record PlacedFile(String source, String target) {
        String targetFolder() {
            return target.substring(0, target.lastIndexOf('/'));
        }

        String fileName() {
            return target.substring(target.lastIndexOf('/') + 1);
        }
    }

    record Instruction(String keyword, String arguments) {}

    record Stage(String name, String from, List<Instruction> instructions) {}

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{(\\w+)}|\\$(\\w+)");
    private static final Pattern FROM = Pattern.compile("(\\S+)(?:\\s+AS\\s+(\\S+))?", Pattern.CASE_INSENSITIVE);

    private final Map<String, String> globalArguments;
    private final List<Stage> stages;

    private Dockerfile(Map<String, String> globalArguments, List<Stage> stages) {
        this.globalArguments = globalArguments;
        this.stages = stages;
    }

    static Dockerfile parse(Path file) {
        Map<String, String> arguments = new LinkedHashMap<>();
        List<Stage> stages = new ArrayList<>();
        for (Instruction instruction : instructions(ModuleFiles.read(file))) {
            if (instruction.keyword().equals("FROM")) {
                Matcher from = FROM.matcher(instruction.arguments());
                if (!from.matches()) {
                    throw new IllegalArgumentException("FROM " + instruction.arguments());
                }
                stages.add(new Stage(from.group(2), from.group(1), new ArrayList<>()));
            } else if (stages.isEmpty()) {
                if (!instruction.keyword().equals("ARG")) {
                    throw new IllegalArgumentException(instruction.keyword() + " before the first FROM");
                }
                String[] nameAndDefault = instruction.arguments().split("=", 2);
                arguments.put(nameAndDefault[0], nameAndDefault.length > 1 ? nameAndDefault[1] : "");
            } else {
                stages.get(stages.size() - 1).instructions().add(instruction);
            }
        }
        return new Dockerfile(arguments, stages);
    }

    Map<String, String> globalArguments() {
        return globalArguments;
    }

    List<Stage> stages() {
        return stages;
    }

    Optional<Stage> stage(String name) {
        return stages.stream().filter(stage -> name.equals(stage.name())).findFirst();
    }

    /** The image a stage starts from, following stages built on other stages, arguments substituted. */
    String baseImage(Stage stage) {
        String from = substitute(stage.from());
        return stage(from).map(this::baseImage).orElse(from);
    }

    /** The files a stage and the stages it builds on put into the image, arguments substituted. */
    List<PlacedFile> placedFiles(Stage stage) {
        List<PlacedFile> files = new ArrayList<>();
        stage(substitute(stage.from())).ifPresent(parent -> files.addAll(placedFiles(parent)));
        for (Instruction instruction : stage.instructions()) {
            if (instruction.keyword().equals("COPY")) {
                files.addAll(copies(words(substitute(instruction.arguments()))));
            } else if (instruction.keyword().equals("RUN")) {
                for (String command : substitute(instruction.arguments()).split("&&")) {
                    List<String> words = words(command);
                    if (!words.isEmpty() && words.get(0).equals("cp")) {
                        files.addAll(copies(words.subList(1, words.size())));
                    }
                }
            }
        }
        return files;
    }

    /**
     * Replaces {@code ${NAME}} and {@code $NAME} with the global argument defaults, also inside those defaults
     * (a default may name an argument declared before it).
     */
    String substitute(String text) {
        String current = text;
        for (int depth = 0; depth < 10; depth++) {
            String next = substituteOnce(current);
            if (next.equals(current)) {
                return next;
            }
            current = next;
        }
        throw new IllegalArgumentException("build arguments refer to each other in a loop: " + text);
    }

    private String substituteOnce(String text) {
        Matcher variable = VARIABLE.matcher(text);
        StringBuilder result = new StringBuilder();
        while (variable.find()) {
            String name = variable.group(1) != null ? variable.group(1) : variable.group(2);
            String value = globalArguments.get(name);
            if (value == null) {
                throw new IllegalArgumentException("no default for build argument " + name);
            }
            variable.appendReplacement(result, Matcher.quoteReplacement(value));
        }
        variable.appendTail(result);
        return result.toString();
    }

    /** Sources and destination of COPY or cp, flags dropped; a destination ending in / is a folder. */
    private static List<PlacedFile> copies(List<String> words) {
        List<String> paths =
                words.stream().filter(word -> !word.startsWith("-")).toList();
        String destination = paths.get(paths.size() - 1);
        List<PlacedFile> files = new ArrayList<>();
        for (String source : paths.subList(0, paths.size() - 1)) {
            String target = destination.endsWith("/")
                    ? destination + source.substring(source.lastIndexOf('/') + 1)
                    : destination;
            files.add(new PlacedFile(source, target));
        }
        return files;
    }

    private static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        for (String word : text.trim().split("\\s+")) {
            if (!word.isEmpty()) {
                words.add(word);
            }
        }
        return words;
    }

    /** Instructions with line continuations joined; comments, blank lines and parser directives dropped. */
    private static List<Instruction> instructions(String text) {
        List<Instruction> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\n")) {
            String stripped = line.strip();
            if (stripped.startsWith("#") || (stripped.isEmpty() && current.length() == 0)) {
                continue;
            }
            if (stripped.endsWith("\\")) {
                current.append(stripped, 0, stripped.length() - 1).append(' ');
                continue;
            }
            current.append(stripped);
            String[] keywordAndArguments = current.toString().strip().split("\\s+", 2);
            instructions.add(new Instruction(
                    keywordAndArguments[0].toUpperCase(java.util.Locale.ROOT),
                    keywordAndArguments.length > 1 ? keywordAndArguments[1] : ""));
            current.setLength(0);
        }
        return instructions;
    }
}
