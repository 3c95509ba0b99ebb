package dev.flinks3.transfer.options;

import dev.flinks3.transfer.Setting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One configuration option of the plugin, declared once: the key users write, the spellings other S3 plugins of
 * Flink read for the same setting (fallback keys, in lookup order), the type of its values, its default, its range
 * or allowed values, its description, whether its value is a secret, and the {@link Setting} of {@code transfer}
 * its value is copied into as it is, if any.
 *
 * <p>Options are declared in catalogs ({@link S3Options} for what the S3 side uses; the filesystem module has its
 * own for what only the Flink filesystem uses) with {@link OptionCatalog#key}: the builder takes the fallback keys,
 * then one terminal method gives the type and the description. Code that names a key in a message takes it from
 * here ({@link #key()}), so a key is spelled once; the Flink side makes a {@code ConfigOption} of each option, and
 * the configuration reference ({@code docs/configuration.md}) is written from these declarations. Immutable and
 * thread-safe.
 *
 * @param <T> the type of the option's values: {@code Boolean}, {@code Integer}, {@code Long} (bytes), {@code
 *     Duration}, an enum, or {@code String}
 */
public final class Option<T> {

    /** How a value is written in configuration text, and so the type the reference names. */
    public enum Kind {
        /** {@code true} or {@code false}. */
        FLAG("boolean"),
        /** An integer in {@link #min()}..{@link #max()}. */
        INTEGER("integer"),
        /** A number of bytes in {@link #min()}..{@link #max()}, with or without a unit ({@code 64m}, {@code 64 MB}). */
        BYTES("size"),
        /** A duration, milliseconds without a unit ({@code 30000}, {@code 30 s}, {@code 2 min}). */
        DURATION("duration"),
        /** One of {@link #allowedValues()}, the constants of an enum, in any case. */
        CHOICE("enum"),
        /** Any other text, which the reading code checks against {@link #allowedText()}. */
        TEXT("string");

        private final String typeName;

        Kind(String typeName) {
            this.typeName = typeName;
        }

        /** The name of the type in the configuration reference. */
        public String typeName() {
            return typeName;
        }
    }

    private final String key;
    private final List<String> fallbackKeys;
    private final Kind kind;
    private final Class<T> type;
    private final T defaultValue;
    private final String defaultText;
    private final long min;
    private final long max;
    private final boolean zeroAllowed;
    private final List<String> allowedValues;
    private final String allowedText;
    private final String description;
    private final boolean secret;
    private final Setting<T> setting;

    private Option(Builder b, Kind kind, Class<T> type, T defaultValue, String description, Setting<T> setting) {
        this.key = b.key;
        this.fallbackKeys = b.spellings.toList();
        this.kind = kind;
        this.type = type;
        this.defaultValue = defaultValue;
        this.min = b.min;
        this.max = b.max;
        this.zeroAllowed = b.zeroAllowed;
        this.allowedValues = List.copyOf(b.allowedValues);
        this.description = Objects.requireNonNull(description, "description");
        this.secret = b.secret;
        this.setting = setting;
        this.defaultText =
                b.defaultText != null ? b.defaultText : defaultValue == null ? "(none)" : valueText(defaultValue);
        this.allowedText =
                b.allowedText != null ? b.allowedText : allowedText(kind, min, max, zeroAllowed, allowedValues);
    }

    /** The key users write, e.g. {@code s3.path-style-access}. */
    public String key() {
        return key;
    }

    /** The other spellings read for this option, in lookup order (after {@link #key()}). */
    public List<String> fallbackKeys() {
        return fallbackKeys;
    }

    /** How a value is written. */
    public Kind kind() {
        return kind;
    }

    /** The type of the option's values. */
    public Class<T> type() {
        return type;
    }

    /** The value when the option is not set, or {@code null} for an option without one. */
    public T defaultValue() {
        return defaultValue;
    }

    /** The default as the reference shows it, e.g. {@code 8 MiB}, {@code (none)} or how it is computed. */
    public String defaultText() {
        return defaultText;
    }

    /** The smallest allowed value of an {@link Kind#INTEGER} or {@link Kind#BYTES} option. */
    public long min() {
        return min;
    }

    /** The largest allowed value of an {@link Kind#INTEGER} or {@link Kind#BYTES} option. */
    public long max() {
        return max;
    }

    /** Whether a {@link Kind#DURATION} option takes 0 (which then turns something off). */
    public boolean zeroAllowed() {
        return zeroAllowed;
    }

    /**
     * The values allowed, in the spelling the reference shows: an enum's constants in lower case for a {@link
     * Kind#CHOICE}, a fixed set of a {@link Kind#TEXT} option; empty for any other option.
     */
    public List<String> allowedValues() {
        return allowedValues;
    }

    /** The range or allowed values as the reference and error messages say them, e.g. {@code 1 .. 64}. */
    public String allowedText() {
        return allowedText;
    }

    /** What the option does, one paragraph. */
    public String description() {
        return description;
    }

    /** Whether the value is a secret: never shown in messages, logs or {@code toString()}. */
    public boolean secret() {
        return secret;
    }

    /**
     * The setting the value is copied into as it is, checked by the setting's range; {@code null} where code of
     * its own reads the value (checked against other values, or for the Flink filesystem only).
     */
    public Setting<T> setting() {
        return setting;
    }

    /** The key. */
    @Override
    public String toString() {
        return key;
    }

    /** A byte count in the largest binary unit that divides it, e.g. {@code 5 MiB}, else in bytes. */
    public static String sizeText(long bytes) {
        String[] units = {"GiB", "MiB", "KiB"};
        for (int i = 0; i < units.length; i++) {
            long unit = 1L << (30 - 10 * i);
            if (bytes >= unit && bytes % unit == 0) {
                return bytes / unit + " " + units[i];
            }
        }
        return bytes + " bytes";
    }

    /** A duration in the largest unit that divides it, as Flink writes durations: {@code 2 min}, {@code 100 ms}. */
    public static String durationText(Duration duration) {
        long ms = duration.toMillis();
        long[] units = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
        String[] names = {"d", "h", "min", "s"};
        for (int i = 0; i < units.length; i++) {
            if (ms != 0 && ms % units[i] == 0) {
                return ms / units[i] + " " + names[i];
            }
        }
        return ms + (ms == 0 ? "" : " ms");
    }

    /** A value of this option as the reference shows it: {@code 8 MiB}, {@code 2 min}, {@code sdk}, {@code 96}. */
    public String valueText(T value) {
        switch (kind) {
            case BYTES:
                return sizeText((Long) value);
            case DURATION:
                return durationText((Duration) value);
            case CHOICE:
                return ((Enum<?>) value).name().toLowerCase(Locale.ROOT);
            default:
                return String.valueOf(value);
        }
    }

    private static String allowedText(Kind kind, long min, long max, boolean zeroAllowed, List<String> values) {
        switch (kind) {
            case FLAG:
                return "true, false";
            case INTEGER:
                return max == Integer.MAX_VALUE ? ">= " + min : min + " .. " + max;
            case BYTES:
                return max == Long.MAX_VALUE ? ">= " + sizeText(min) : sizeText(min) + " .. " + sizeText(max);
            case DURATION:
                return zeroAllowed ? "0 or > 0" : "> 0";
            default:
                return values.isEmpty() ? "-" : String.join(", ", values);
        }
    }

    /**
     * Collects the key spellings and the details of one option; a terminal method ({@link #sets}, {@link #flag},
     * {@link #text}, ...) makes the option and adds it to its catalog. Not thread-safe; used in static initialisers.
     */
    public static final class Builder {
        private final OptionCatalog catalog;
        private final String key;
        private final KeySpellings spellings;
        private boolean secret;
        private String defaultText;
        private String allowedText;
        private long min;
        private long max;
        private boolean zeroAllowed;
        private final List<String> allowedValues = new ArrayList<>();

        Builder(OptionCatalog catalog, String key) {
            this.catalog = catalog;
            this.key = Objects.requireNonNull(key, "key");
            this.spellings = KeySpellings.of(key);
        }

        /** Other keys taken literally, e.g. Flink's older {@code s3.access.key}. */
        public Builder keys(String... literalKeys) {
            spellings.keys(literalKeys);
            return this;
        }

        /** S3A's property names without {@code fs.s3a.}, in the three spellings {@code flink-s3-fs-hadoop} reads. */
        public Builder hadoop(String... s3aSuffixes) {
            spellings.hadoop(s3aSuffixes);
            return this;
        }

        /** S3A's names in their {@code s3a.} and {@code fs.s3a.} spellings only: {@code s3.} means another option. */
        public Builder hadoopWithoutS3Prefix(String... s3aSuffixes) {
            spellings.hadoopWithoutS3Prefix(s3aSuffixes);
            return this;
        }

        /** Presto's property names without {@code presto.s3.}, in both spellings {@code flink-s3-fs-presto} reads. */
        public Builder presto(String... prestoSuffixes) {
            spellings.presto(prestoSuffixes);
            return this;
        }

        /** The value is a secret: never shown. */
        public Builder secret() {
            this.secret = true;
            return this;
        }

        /** The default as the reference shows it, for a default the reading code computes. */
        public Builder defaultText(String text) {
            this.defaultText = text;
            return this;
        }

        /** The range or allowed values as the reference shows them, where more applies than the type's range. */
        public Builder allowedText(String text) {
            this.allowedText = text;
            return this;
        }

        /**
         * The option whose value is copied into {@code setting} as it is: its type, default and range are the
         * setting's ({@link Setting.Kind} {@code FLAG}, {@code INTEGER}, {@code BYTES}, {@code DURATION} or {@code
         * CHOICE}).
         *
         * @throws IllegalArgumentException for a setting of {@link Setting.Kind#VALUE}, whose text no option reads
         */
        public <T> Option<T> sets(Setting<T> setting, String description) {
            return add(fromSetting(setting, description, setting));
        }

        /**
         * The option with the type, default and range of {@code setting}, whose value code of its own reads and
         * sets there, because it is checked against other values.
         */
        public <T> Option<T> like(Setting<T> setting, String description) {
            return add(fromSetting(setting, description, null));
        }

        /** A switch; {@code defaultValue} {@code null} for one whose default the reading code decides. */
        public Option<Boolean> flag(Boolean defaultValue, String description) {
            return add(new Option<>(this, Kind.FLAG, Boolean.class, defaultValue, description, null));
        }

        /** An integer in {@code min..max}; {@code defaultValue} {@code null} for none. */
        public Option<Integer> integer(Integer defaultValue, int min, int max, String description) {
            this.min = min;
            this.max = max;
            return add(new Option<>(this, Kind.INTEGER, Integer.class, defaultValue, description, null));
        }

        /** A positive duration, or with {@code zeroAllowed} also 0. */
        public Option<Duration> duration(Duration defaultValue, boolean zeroAllowed, String description) {
            this.zeroAllowed = zeroAllowed;
            return add(new Option<>(this, Kind.DURATION, Duration.class, defaultValue, description, null));
        }

        /**
         * Text the reading code checks; {@code allowed} says what it takes (e.g. {@code IAM role ARN}).
         *
         * @param defaultValue the default, or {@code null} for none
         */
        public Option<String> text(String defaultValue, String allowed, String description) {
            this.allowedText = allowed;
            return add(new Option<>(this, Kind.TEXT, String.class, defaultValue, description, null));
        }

        /** Text that is one of {@code values} (the reading code may take other spellings of them too). */
        public Option<String> oneOf(String defaultValue, List<String> values, String description) {
            allowedValues.addAll(values);
            return add(new Option<>(this, Kind.TEXT, String.class, defaultValue, description, null));
        }

        private <T> Option<T> fromSetting(Setting<T> setting, String description, Setting<T> target) {
            Kind kind;
            switch (setting.kind()) {
                case FLAG:
                    kind = Kind.FLAG;
                    break;
                case INTEGER:
                    kind = Kind.INTEGER;
                    break;
                case BYTES:
                    kind = Kind.BYTES;
                    break;
                case DURATION:
                    kind = Kind.DURATION;
                    break;
                case CHOICE:
                    kind = Kind.CHOICE;
                    for (Object constant : setting.type().getEnumConstants()) {
                        allowedValues.add(((Enum<?>) constant).name().toLowerCase(Locale.ROOT));
                    }
                    break;
                default:
                    throw new IllegalArgumentException(setting + " is no flag, number, duration or choice");
            }
            this.min = setting.min();
            this.max = setting.max();
            return new Option<>(this, kind, setting.type(), setting.defaultValue(), description, target);
        }

        private <T> Option<T> add(Option<T> option) {
            catalog.add(option);
            return option;
        }
    }
}
