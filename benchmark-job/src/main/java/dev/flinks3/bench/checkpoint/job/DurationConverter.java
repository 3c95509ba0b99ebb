package dev.flinks3.bench.checkpoint.job;

import java.time.Duration;
import org.apache.flink.util.TimeUtils;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Parses durations the way Flink's configuration does ({@code 500ms}, {@code 5s}, {@code 2min},
 * {@code 1h}; a bare number is milliseconds), so options read like {@code execution.checkpointing.*}.
 */
public final class DurationConverter implements ITypeConverter<Duration> {

    /**
     * @throws TypeConversionException for text that is no such duration, saying what is expected
     */
    @Override
    public Duration convert(String value) {
        try {
            return TimeUtils.parseDuration(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("'" + value + "' is no duration: expected e.g. 500ms, 5s, 2min or 1h");
        }
    }
}
