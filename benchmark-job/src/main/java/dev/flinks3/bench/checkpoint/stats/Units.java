package dev.flinks3.bench.checkpoint.stats;

import java.util.Locale;

/** The units the reports use: MB = 10^6 bytes (as the network profiles' MB/s), seconds, milliseconds. */
public final class Units {

    private static final double MB = 1_000_000.0;

    private Units() {}

    /** Bytes in MB (10^6 bytes). */
    public static double megabytes(long bytes) {
        return bytes / MB;
    }

    /** MB per second for {@code bytes} moved in {@code millis}; 0 when {@code millis} is not positive. */
    public static double megabytesPerSecond(long bytes, long millis) {
        return millis <= 0 ? 0 : bytes / MB / (millis / 1000.0);
    }

    /** Bytes as {@code "12.3 MB"}. */
    public static String formatMegabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", megabytes(bytes));
    }

    /** Milliseconds as {@code "2.41 s"}. */
    public static String formatSeconds(double millis) {
        return String.format(Locale.ROOT, "%.2f s", millis / 1000.0);
    }
}
