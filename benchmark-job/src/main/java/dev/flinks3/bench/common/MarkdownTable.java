package dev.flinks3.bench.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A GitHub-flavoured markdown table, built row by row. */
public final class MarkdownTable {

    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public MarkdownTable(List<String> header) {
        this.header = List.copyOf(header);
    }

    public MarkdownTable row(List<String> cells) {
        if (cells.size() != header.size()) {
            throw new IllegalArgumentException("row has " + cells.size() + " cells, header " + header.size());
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    /** One row per map entry: key, value. */
    public MarkdownTable rowsOf(Map<String, String> entries) {
        entries.forEach((key, value) -> row(List.of(key, value)));
        return this;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        line(text, header);
        text.append('|');
        header.forEach(h -> text.append(" --- |"));
        text.append('\n');
        rows.forEach(r -> line(text, r));
        return text.toString();
    }

    private static void line(StringBuilder text, List<String> cells) {
        text.append('|');
        for (String cell : cells) {
            text.append(' ').append(cell.replace("|", "\\|").replace("\n", " ")).append(" |");
        }
        text.append('\n');
    }
}
