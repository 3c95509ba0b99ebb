package dev.flinks3.bench.fsbench;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** One-line summaries of exceptions for reports; the full stack trace goes to the contender's log. */
public final class Failures {

    private static final int MAX_CAUSES = 4;

    private Failures() {}

    /**
     * The exception and its causes as {@code Type: message <- Cause: message}, and the frame that
     * threw the root cause.
     */
    public static String summary(Throwable failure) {
        List<String> parts = new ArrayList<>();
        Set<Throwable> seen = new HashSet<>();
        Throwable root = failure;
        for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
            root = t;
            if (parts.size() < MAX_CAUSES) {
                parts.add(t.getClass().getName() + ": " + t.getMessage());
            }
        }
        String summary = String.join(" <- ", parts);
        StackTraceElement[] frames = root.getStackTrace();
        return frames.length == 0 ? summary : summary + " at " + frames[0];
    }
}
