package dev.flinks3.bench.checkpoint.run;

/** One-line descriptions of failures for reports: the exception's message and, if different, its root cause. */
public final class FailureMessages {

    private FailureMessages() {}

    /** {@code "<message>; root cause: <class>: <message>"}, or just the message when it has no cause. */
    public static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = failure.getMessage() != null ? failure.getMessage() : failure.toString();
        return root == failure ? text : text + "; root cause: " + root;
    }
}
