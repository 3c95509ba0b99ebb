package dev.flinks3.doctor;

import java.util.Objects;

/**
 * One check's result: its section ({@code configuration}, {@code credentials}, {@code network}, {@code store},
 * {@code throughput}), its name, the verdict, what was found and, for a warning or failure, what to change.
 * Never holds a secret. Immutable.
 */
public final class Check {

    private final String section;
    private final String name;
    private final Verdict verdict;
    private final String detail;
    private final String fix;

    private Check(String section, String name, Verdict verdict, String detail, String fix) {
        this.section = Objects.requireNonNull(section, "section");
        this.name = Objects.requireNonNull(name, "name");
        this.verdict = Objects.requireNonNull(verdict, "verdict");
        this.detail = detail == null ? "" : detail;
        this.fix = fix == null ? "" : fix;
    }

    static Check ok(String section, String name, String detail) {
        return new Check(section, name, Verdict.OK, detail, null);
    }

    /** @param change the setting to change, or what to do */
    static Check warning(String section, String name, String detail, String change) {
        return new Check(section, name, Verdict.WARNING, detail, change);
    }

    /** @param fix what makes it work */
    static Check failure(String section, String name, String detail, String fix) {
        return new Check(section, name, Verdict.FAILURE, detail, fix);
    }

    public String section() {
        return section;
    }

    public String name() {
        return name;
    }

    public Verdict verdict() {
        return verdict;
    }

    /** What was found. */
    public String detail() {
        return detail;
    }

    /** The switch to change (warning) or the fix (failure); empty for ok. */
    public String fix() {
        return fix;
    }

    @Override
    public String toString() {
        return section + "/" + name + ": " + verdict.word() + " " + detail + (fix.isEmpty() ? "" : " -> " + fix);
    }
}
