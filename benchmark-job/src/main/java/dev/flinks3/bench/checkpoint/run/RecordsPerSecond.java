package dev.flinks3.bench.checkpoint.run;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The restored job's records per wall-clock second ({@code JobAccumulators.RECORDS_AFTER_RESTORE_PER_SECOND},
 * a Flink {@code Histogram} shown by the REST API as {@code {1796000000=1234, ...}}) and the rate in a window
 * of milliseconds, counting each second's records in proportion to the part of it inside the window.
 */
final class RecordsPerSecond {

    private static final Pattern ENTRY = Pattern.compile("(\\d+)=(\\d+)");

    private RecordsPerSecond() {}

    /** Records by epoch second; empty for null or an empty histogram. */
    static Map<Long, Long> parse(String histogram) {
        Map<Long, Long> bySecond = new TreeMap<>();
        if (histogram != null) {
            Matcher m = ENTRY.matcher(histogram);
            while (m.find()) {
                bySecond.merge(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long::sum);
            }
        }
        return bySecond;
    }

    /** Records per second between {@code fromMs} and {@code toMs} (epoch ms, to after from). */
    static double rate(Map<Long, Long> bySecond, long fromMs, long toMs) {
        double records = 0;
        for (Map.Entry<Long, Long> entry : bySecond.entrySet()) {
            long secondStart = entry.getKey() * 1000;
            long overlap = Math.min(toMs, secondStart + 1000) - Math.max(fromMs, secondStart);
            if (overlap > 0) {
                records += entry.getValue() * overlap / 1000.0;
            }
        }
        return records * 1000.0 / (toMs - fromMs);
    }
}
