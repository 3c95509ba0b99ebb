package dev.flinks3.doctor;

/** The outcome of one check, worst last: the worst verdict of a run gives the exit code. */
public enum Verdict {
    /** Works as configured. */
    OK,
    /** Works, but a setting should change: the check names the switch. */
    WARNING,
    /** Does not work: the check names the fix. */
    FAILURE;

    /** The lower-case word the text and JSON output use. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
