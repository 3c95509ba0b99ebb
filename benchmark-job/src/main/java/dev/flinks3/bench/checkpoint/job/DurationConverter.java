package dev.flinks3.bench.checkpoint.job;

import java.time.Duration;
import org.apache.flink.util.TimeUtils;
import picocli.CommandLine.ITypeConverter;

/**
 * Parses durations the way Flink's configuration does ({@code 500ms}, {@code 5s}, {@code 2min},
 * {@code 1h}; a bare number is milliseconds), so options read like {@code execution.checkpointing.*}.
 */
public final class DurationConverter implements ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        return TimeUtils.parseDuration(value);
    }
}
