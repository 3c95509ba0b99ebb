package dev.flinks3.testserver;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The server's {@link RequestTotals} per S3 operation at one moment: what {@link RequestLog#summary()}
 * returns in the server's JVM and what {@code GET /__flinks3/requests} answers to another JVM, as
 * the text of {@link #render()}, which {@link #parse} reads back. Differences of two summaries
 * ({@link #minus}) give what happened in between.
 *
 * @param byKind the totals per operation; operations without anything counted are left out
 */
public record RequestSummary(Map<RequestKind, RequestTotals> byKind) {

    /** No requests at all. */
    public static final RequestSummary NONE = new RequestSummary(Map.of());

    private static final String TOTAL = "Total";

    public RequestSummary {
        Map<RequestKind, RequestTotals> counted = new EnumMap<>(RequestKind.class);
        byKind.forEach((kind, totals) -> {
            if (!totals.isNone()) {
                counted.put(kind, totals);
            }
        });
        byKind = Map.copyOf(counted);
    }

    /** The totals of one operation, {@link RequestTotals#NONE} if it had no request. */
    public RequestTotals of(RequestKind kind) {
        return byKind.getOrDefault(kind, RequestTotals.NONE);
    }

    /** The totals of all operations together. */
    public RequestTotals total() {
        return byKind.values().stream().reduce(RequestTotals.NONE, RequestTotals::plus);
    }

    /** What happened between {@code earlier} and this summary; operations where nothing changed are left out. */
    public RequestSummary minus(RequestSummary earlier) {
        Map<RequestKind, RequestTotals> delta = new EnumMap<>(RequestKind.class);
        byKind.forEach((kind, totals) -> delta.put(kind, totals.minus(earlier.of(kind))));
        return new RequestSummary(delta);
    }

    /**
     * The summary as text: a line {@code <Operation> <requests> <serveNanos> <bytesSent>} per operation
     * (operation names of the S3 API reference, in alphabetical order), then {@code Total <requests>}.
     */
    public String render() {
        StringBuilder text = new StringBuilder();
        Map<String, RequestTotals> byName = new TreeMap<>();
        byKind.forEach((kind, totals) -> byName.put(kind.operationName(), totals));
        byName.forEach((name, totals) -> text.append(name)
                .append(' ')
                .append(totals.requests())
                .append(' ')
                .append(totals.serveNanos())
                .append(' ')
                .append(totals.bytesSent())
                .append('\n'));
        text.append(TOTAL).append(' ').append(total().requests()).append('\n');
        return text.toString();
    }

    /**
     * Reads the text of {@link #render()}.
     *
     * @throws IllegalArgumentException for a line of another shape or an unknown operation name
     */
    public static RequestSummary parse(String text) {
        Map<RequestKind, RequestTotals> byKind = new EnumMap<>(RequestKind.class);
        text.lines().map(String::trim).filter(line -> !line.isEmpty()).forEach(line -> {
            String[] words = line.split(" ");
            if (words[0].equals(TOTAL) && words.length == 2) {
                return;
            }
            if (words.length != 4) {
                throw new IllegalArgumentException(
                        "not a '<Operation> <requests> <serveNanos> <bytesSent>' line: '" + line + "'");
            }
            try {
                byKind.put(
                        RequestKind.forOperationName(words[0]),
                        new RequestTotals(
                                Long.parseLong(words[1]), Long.parseLong(words[2]), Long.parseLong(words[3])));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a number in '" + line + "'", e);
            }
        });
        return new RequestSummary(byKind);
    }
}
