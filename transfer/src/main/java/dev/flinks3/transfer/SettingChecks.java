package dev.flinks3.transfer;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
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

    /**
     * The instance fields of a settings builder as {@code name=value, ...}, in declaration order, leaving out
     * {@code null} values: the {@code toString()} of a settings object that keeps its builder's values, so a
     * new setting needs no line of its own there. Not for builders that hold secrets in plain form.
     */
    static String fieldsText(Object builder) {
        StringBuilder text = new StringBuilder();
        for (Field field : builder.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) || field.isSynthetic()) {
                continue;
            }
            Object value;
            try {
                field.setAccessible(true);
                value = field.get(builder);
            } catch (IllegalAccessException e) {
                throw new IllegalStateException("cannot read " + field, e);
            }
            if (value != null) {
                text.append(text.length() == 0 ? "" : ", ")
                        .append(field.getName())
                        .append('=')
                        .append(value);
            }
        }
        return text.toString();
    }
}
