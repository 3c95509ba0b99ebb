package dev.flinks3.transfer;

import java.time.Duration;

/** The range checks the settings builders share; each names the setting, the value and what is allowed. */
final class SettingChecks {

    private SettingChecks() {}

    /** @throws IllegalArgumentException unless {@code min <= value <= max} */
    static long inRange(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " " + value + " is outside " + min + ".." + max);
        }
        return value;
    }

    /** @throws IllegalArgumentException unless {@code min <= value <= max} */
    static int inRange(String name, int value, int min, int max) {
        return (int) inRange(name, (long) value, min, max);
    }

    /** @throws IllegalArgumentException unless the duration is above zero */
    static Duration positive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " " + value + " must be a positive duration");
        }
        return value;
    }

    /** The trimmed value, or {@code null} for {@code null} or blank. */
    static String blankToNull(String value) {
        return value == null || value.trim().isEmpty() ? null : value.trim();
    }
}
