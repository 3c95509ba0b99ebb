package dev.flinks3.transfer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * One setting of a settings part ({@link ClientSettings}, {@link CredentialSettings}, {@link UploadSettings},
 * {@link ReadSettings}, {@link EncryptionSettings}): its name, the type, default and allowed values of its value,
 * and the key its part holds the value by. A part declares each of its settings once, as a {@code public static
 * final Setting} constant made by the part's {@link Group}; its builder takes a value with {@code set(setting,
 * value)}, which checks it, and the built part gives it back with {@code get(setting)}. The configuration side takes
 * a setting's default and range from here. Immutable and thread-safe.
 *
 * @param <T> the type of the setting's values
 */
public final class Setting<T> {

    /** How a value of a setting is written in configuration text. */
    public enum Kind {
        /** {@code true} or {@code false}. */
        FLAG,
        /** An integer in {@link #min()}..{@link #max()}. */
        INTEGER,
        /** A number of bytes in {@link #min()}..{@link #max()}, written with or without a unit. */
        BYTES,
        /** A positive duration. */
        DURATION,
        /** A constant of an enum, {@link #type()}. */
        CHOICE,
        /** Any other value, which its part's own code reads. */
        VALUE
    }

    private final Group group;
    private final String name;
    private final Class<T> type;
    private final Kind kind;
    private final T defaultValue;
    private final long min;
    private final long max;
    private final UnaryOperator<T> check;
    private final Function<T, String> text;

    private Setting(
            Group group,
            String name,
            Class<T> type,
            Kind kind,
            T defaultValue,
            long min,
            long max,
            UnaryOperator<T> check,
            Function<T, String> text) {
        this.group = group;
        this.name = name;
        this.type = type;
        this.kind = kind;
        this.defaultValue = defaultValue;
        this.min = min;
        this.max = max;
        this.check = check;
        this.text = text;
    }

    /** The setting's name in its part, as its getter and {@code toString()} of the part name it. */
    public String name() {
        return name;
    }

    /** The type of the setting's values. */
    public Class<T> type() {
        return type;
    }

    /** How a value is written in configuration text. */
    public Kind kind() {
        return kind;
    }

    /** The value a new builder holds; {@code null} for a setting that is unset by default. */
    public T defaultValue() {
        return defaultValue;
    }

    /** The smallest allowed value of an {@link Kind#INTEGER} or {@link Kind#BYTES} setting. */
    public long min() {
        return min;
    }

    /** The largest allowed value of an {@link Kind#INTEGER} or {@link Kind#BYTES} setting. */
    public long max() {
        return max;
    }

    /** The settings part that declares this setting ({@link ClientSettings}, {@link UploadSettings}, ...). */
    public Class<?> part() {
        return group.part;
    }

    /**
     * The value a builder keeps for {@code value}: the value itself, or an immutable copy, or {@code null} for a
     * blank string.
     *
     * @throws IllegalArgumentException naming the setting, the value and what is allowed, for a value that is not
     * @throws NullPointerException for {@code null} where the setting needs a value
     */
    T check(T value) {
        return check.apply(value);
    }

    /** The value as a part's {@code toString()} shows it; a secret never shows itself. */
    String text(T value) {
        return text.apply(value);
    }

    @Override
    public String toString() {
        return group.part.getSimpleName() + "." + name;
    }

    /**
     * The settings one part declares, in declaration order; the part makes each of its settings with one of the
     * methods here, in a {@code static final} initialiser after the group's own.
     */
    static final class Group {
        private final Class<?> part;
        private final List<Setting<?>> settings = new ArrayList<>();

        /** @param part the settings part whose settings this group declares */
        Group(Class<?> part) {
            this.part = part;
        }

        /** Every setting of the part, in declaration order. */
        List<Setting<?>> settings() {
            return Collections.unmodifiableList(settings);
        }

        /** A switch, never {@code null}. */
        Setting<Boolean> flag(String name, boolean defaultValue) {
            return add(name, Boolean.class, Kind.FLAG, defaultValue, 0, 0, v -> Objects.requireNonNull(v, name));
        }

        /** An integer in {@code min..max}. */
        Setting<Integer> integer(String name, int defaultValue, int min, int max) {
            return ranged(name, Integer.class, Kind.INTEGER, defaultValue, min, max);
        }

        /** A number of bytes in {@code min..max}. */
        Setting<Long> bytes(String name, long defaultValue, long min, long max) {
            return ranged(name, Long.class, Kind.BYTES, defaultValue, min, max);
        }

        private <N extends Number> Setting<N> ranged(
                String name, Class<N> type, Kind kind, N defaultValue, long min, long max) {
            return add(name, type, kind, defaultValue, min, max, v -> {
                SettingChecks.inRange(name, Objects.requireNonNull(v, name).longValue(), min, max);
                return v;
            });
        }

        /** A duration above zero. */
        Setting<Duration> positive(String name, Duration defaultValue) {
            return add(name, Duration.class, Kind.DURATION, defaultValue, 0, 0, v -> SettingChecks.positive(name, v));
        }

        /** A constant of {@code type}, never {@code null}. */
        <E extends Enum<E>> Setting<E> choice(String name, Class<E> type, E defaultValue) {
            return add(name, type, Kind.CHOICE, defaultValue, 0, 0, v -> Objects.requireNonNull(v, name));
        }

        /** A string, trimmed; blank is {@code null}, which is the default. */
        Setting<String> text(String name) {
            return add(name, String.class, Kind.VALUE, null, 0, 0, SettingChecks::blankToNull);
        }

        /**
         * Any other value; {@code check} returns the value to keep (an immutable one) or throws an {@link
         * IllegalArgumentException} naming the setting, the value and what is allowed.
         */
        <T> Setting<T> value(String name, Class<T> type, T defaultValue, UnaryOperator<T> check) {
            return add(name, type, Kind.VALUE, defaultValue, 0, 0, check);
        }

        /** Like {@link #value}, with a value shown by {@code toString()} of the part as {@code text} gives it. */
        <T> Setting<T> shown(
                String name, Class<T> type, T defaultValue, UnaryOperator<T> check, Function<T, String> text) {
            Setting<T> setting = new Setting<>(this, name, type, Kind.VALUE, defaultValue, 0, 0, check, text);
            settings.add(setting);
            return setting;
        }

        /**
         * {@code raw} as the class of a generic type such as {@code List<String>}, for {@link #value}: the values
         * are checked as {@code raw} only.
         */
        @SuppressWarnings("unchecked")
        static <T> Class<T> generic(Class<?> raw) {
            return (Class<T>) raw;
        }

        private <T> Setting<T> add(
                String name, Class<T> type, Kind kind, T defaultValue, long min, long max, UnaryOperator<T> check) {
            Setting<T> setting = new Setting<>(this, name, type, kind, defaultValue, min, max, check, String::valueOf);
            settings.add(setting);
            return setting;
        }
    }
}
