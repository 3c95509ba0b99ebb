package dev.flinks3.it;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * The records of the FileSink jobs (failover, migration between plugins): one line per record, the record's number in ten digits,
 * a space, and filler up to {@value #LINE_BYTES} bytes with the newline, so a few thousand records
 * fill an S3 part of 5 MiB.
 */
public final class NumberedRecords {

    /** Bytes of one line, newline included. */
    public static final int LINE_BYTES = 1024;

    private static final String FILLER;

    static {
        char[] filler = new char[LINE_BYTES - 10 - 1 - 1];
        Arrays.fill(filler, 'x');
        FILLER = new String(filler);
    }

    private NumberedRecords() {}

    /** The line of record {@code number}, without the newline the sink's encoder appends. */
    public static String line(long number) {
        return String.format("%010d %s", number, FILLER);
    }

    /**
     * Marks the records of one committed file in {@code seen}, and adds to {@code twice} those already marked.
     */
    public static void tally(byte[] file, BitSet seen, List<Long> twice) {
        for (long number : numbersIn(file)) {
            if (seen.get((int) number)) {
                twice.add(number);
            }
            seen.set((int) number);
        }
    }

    /** The record numbers in the lines of one committed file. */
    public static long[] numbersIn(byte[] file) {
        String text = new String(file, StandardCharsets.UTF_8);
        if (text.isEmpty()) {
            return new long[0];
        }
        return text.lines()
                .mapToLong(line -> Long.parseLong(line.substring(0, 10)))
                .toArray();
    }
}
