package dev.flinks3.fs;

import dev.flinks3.transfer.options.Option;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.util.TimeUtils;

/**
 * Reads option values from a Flink {@link Configuration}, remembering which spelling of a key was
 * used, so that a bad value is reported under the key the user actually wrote.
 *
 * <p>Lookup order is Flink's: the option's own key, then its fallback keys in declared order. A value
 * that does not parse or is out of range raises an {@link IllegalConfigurationException} naming the
 * key, the value given and what is allowed; values of secret options ({@link Option#secret()}) are never shown.
 */
final class ConfigReader {

    /** One configured value and the key it was found under. */
    static final class Entry {
        final ConfigOption<?> option;
        final String key;
        final String value;

        Entry(ConfigOption<?> option, String key, String value) {
            this.option = option;
            this.key = key;
            this.value = value;
        }
    }

    private final Map<String, String> values;
    private final String bucket;

    ConfigReader(Configuration configuration) {
        this(configuration, null);
    }

    /**
     * A reader of the configuration of one bucket: each option's per-bucket spellings ({@link
     * BucketKeys}) come before its global ones.
     *
     * @param bucket the bucket, or {@code null} for the global configuration
     */
    ConfigReader(Configuration configuration, String bucket) {
        this.values = configuration.toMap();
        this.bucket = bucket;
    }

    /** The bucket this reader reads for, or {@code null} for the global configuration. */
    String bucket() {
        return bucket;
    }

    /** The key to name in a message about an option that is not set: its per-bucket spelling for a bucket. */
    String name(ConfigOption<?> option) {
        return bucket == null
                ? option.key()
                : BucketKeys.scoped(option.key(), bucket).orElse(option.key());
    }

    /**
     * The value as written, under the first spelling present: for a bucket, the per-bucket spellings
     * (own key first, then the fallback keys), then the global ones; empty if none is set.
     */
    Optional<Entry> find(ConfigOption<?> option) {
        if (bucket != null) {
            Optional<Entry> scoped = findScoped(option);
            if (scoped.isPresent()) {
                return scoped;
            }
        }
        String own = values.get(option.key());
        if (own != null) {
            return Optional.of(new Entry(option, option.key(), own));
        }
        for (FallbackKey fallback : option.fallbackKeys()) {
            String value = values.get(fallback.getKey());
            if (value != null) {
                return Optional.of(new Entry(option, fallback.getKey(), value));
            }
        }
        return Optional.empty();
    }

    /** The value under a per-bucket spelling of the option (for this reader's bucket), if one is set. */
    Optional<Entry> findScoped(ConfigOption<?> option) {
        List<String> spellings = new ArrayList<>();
        spellings.add(option.key());
        option.fallbackKeys().forEach(f -> spellings.add(f.getKey()));
        for (String spelling : spellings) {
            Optional<String> key = BucketKeys.scoped(spelling, bucket);
            if (key.isPresent() && values.containsKey(key.get())) {
                return Optional.of(new Entry(option, key.get(), values.get(key.get())));
            }
        }
        return Optional.empty();
    }

    /** A trimmed string, or {@code null} if unset or blank. */
    String string(ConfigOption<String> option) {
        Optional<Entry> entry = find(option);
        if (entry.isEmpty()) {
            return option.defaultValue();
        }
        String trimmed = entry.get().value.trim();
        return trimmed.isEmpty() ? null : trimmed;
    }

    boolean bool(ConfigOption<Boolean> option) {
        return parse(option, "true or false", raw -> {
            String v = raw.trim().toLowerCase(Locale.ROOT);
            if (v.equals("true") || v.equals("false")) {
                return Boolean.valueOf(v);
            }
            throw new IllegalArgumentException();
        });
    }

    /** An integer in the option's declared range ({@link S3ConfigOptions#range}). */
    int intInRange(ConfigOption<Integer> option) {
        S3ConfigOptions.Range range = S3ConfigOptions.range(option);
        return intInRange(option, (int) range.min, (int) range.max);
    }

    /** A byte size in the option's declared range ({@link S3ConfigOptions#range}). */
    long bytesInRange(ConfigOption<MemorySize> option) {
        S3ConfigOptions.Range range = S3ConfigOptions.range(option);
        return bytesInRange(option, range.min, range.max);
    }

    /**
     * The value of {@code option} as its declaration's {@link Option#kind()} says: a flag with {@link #bool}, an
     * integer with {@link #intInRange}, bytes with {@link #bytesInRange}, a duration with {@link #positiveDuration}
     * (or {@link #nonNegativeDuration} where 0 is allowed), a choice with {@link #choice}; the default if the option
     * is unset.
     *
     * @throws IllegalConfigurationException naming the key, the value and what is allowed, for a value that is not
     * @throws IllegalArgumentException for a declaration of {@link Option.Kind#TEXT}, which code of its own reads
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    <T> T value(ConfigOption<?> option, Option<T> declaration) {
        Object value;
        switch (declaration.kind()) {
            case FLAG:
                value = bool((ConfigOption<Boolean>) option);
                break;
            case INTEGER:
                value = intInRange((ConfigOption<Integer>) option);
                break;
            case BYTES:
                value = bytesInRange((ConfigOption<MemorySize>) option);
                break;
            case DURATION:
                value = declaration.zeroAllowed()
                        ? nonNegativeDuration((ConfigOption<Duration>) option)
                        : positiveDuration((ConfigOption<Duration>) option);
                break;
            case CHOICE:
                value = choice((ConfigOption) option);
                break;
            default:
                throw new IllegalArgumentException(declaration + " is text, which code of its own reads");
        }
        return declaration.type().cast(value);
    }

    /** An integer in {@code [min, max]}. */
    private int intInRange(ConfigOption<Integer> option, int min, int max) {
        int value = parse(option, rangeText(min, max), raw -> Integer.valueOf(raw.trim()));
        if (value < min || value > max) {
            throw invalid(find(option).orElseThrow(), rangeText(min, max));
        }
        return value;
    }

    /** A byte size (plain bytes or with unit, as Flink's {@link MemorySize}) in {@code [min, max]} bytes. */
    private long bytesInRange(ConfigOption<MemorySize> option, long min, long max) {
        String allowed = max == Long.MAX_VALUE
                ? "a size of at least " + Option.sizeText(min)
                : "a size from " + Option.sizeText(min) + " to " + Option.sizeText(max);
        long value = parse(option, allowed, raw -> MemorySize.parse(raw.trim())).getBytes();
        if (value < min || value > max) {
            throw invalid(find(option).orElseThrow(), allowed);
        }
        return value;
    }

    /** A positive duration; a number without unit is milliseconds, as in Flink and S3A. */
    Duration positiveDuration(ConfigOption<Duration> option) {
        String allowed = "a positive duration such as '30 s', '2 min' or a number of ms";
        Duration value = parse(option, allowed, raw -> TimeUtils.parseDuration(raw.trim()));
        if (value.isNegative() || value.isZero()) {
            throw invalid(find(option).orElseThrow(), allowed);
        }
        return value;
    }

    /** A duration of zero or more; a number without unit is milliseconds. */
    Duration nonNegativeDuration(ConfigOption<Duration> option) {
        String allowed = "0 or a positive duration such as '30 s', '5 min' or a number of ms";
        Duration value = parse(option, allowed, raw -> TimeUtils.parseDuration(raw.trim()));
        if (value.isNegative()) {
            throw invalid(find(option).orElseThrow(), allowed);
        }
        return value;
    }

    /**
     * An enum constant of the type of the option's default, matched ignoring case and treating '-' as '_'.
     *
     * @throws IllegalArgumentException if the option has no default (use {@link #enumValue})
     */
    <E extends Enum<E>> E choice(ConfigOption<E> option) {
        if (!option.hasDefaultValue()) {
            throw new IllegalArgumentException("option '" + option.key() + "' has no default to take its type from");
        }
        return enumValue(option, option.defaultValue().getDeclaringClass());
    }

    /** An enum constant, matched ignoring case and treating '-' as '_'. */
    <E extends Enum<E>> E enumValue(ConfigOption<E> option, Class<E> type) {
        StringBuilder allowed = new StringBuilder("one of");
        for (E constant : type.getEnumConstants()) {
            allowed.append(allowed.length() == 6 ? " " : ", ")
                    .append(constant.name().toLowerCase(Locale.ROOT));
        }
        return parse(
                option,
                allowed.toString(),
                raw -> Enum.valueOf(type, raw.trim().replace('-', '_').toUpperCase(Locale.ROOT)));
    }

    /**
     * Parses the configured value, or returns the option's default if it is unset.
     *
     * @param allowed what is allowed, for the message if the value does not parse
     */
    <T> T parse(ConfigOption<T> option, String allowed, Function<String, T> parser) {
        return parseIfSet(option, allowed, parser).orElseGet(option::defaultValue);
    }

    /**
     * Parses the configured value of a string option, or its default string if it is unset, into
     * another type.
     */
    <T> T parseString(ConfigOption<String> option, String allowed, Function<String, T> parser) {
        return parseIfSet(option, allowed, parser).orElseGet(() -> parser.apply(option.defaultValue()));
    }

    private <T> Optional<T> parseIfSet(ConfigOption<?> option, String allowed, Function<String, T> parser) {
        Optional<Entry> entry = find(option);
        if (entry.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(parser.apply(entry.get().value));
        } catch (RuntimeException e) {
            throw invalid(entry.get(), allowed);
        }
    }

    /** The exception for a value that is not allowed; shows the value unless the option is secret. */
    static IllegalConfigurationException invalid(Entry entry, String allowed) {
        String shown = S3ConfigOptions.secret(entry.option) ? "(hidden)" : "'" + entry.value + "'";
        return new IllegalConfigurationException(
                "Invalid value " + shown + " for configuration key '" + entry.key + "': allowed is " + allowed + ".");
    }

    private static String rangeText(int min, int max) {
        return max == Integer.MAX_VALUE ? "an integer of at least " + min : "an integer from " + min + " to " + max;
    }
}
