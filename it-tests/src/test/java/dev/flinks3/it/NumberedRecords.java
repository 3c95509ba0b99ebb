package dev.flinks3.it;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The records of the FileSink failover job: one line per record, the record's number in ten digits,
 * a space, and filler up to {@value #LINE_BYTES} bytes with the newline, so a few thousand records
 * fill an S3 part of 5 MiB.
 */
final class NumberedRecords {

    /** Bytes of one line, newline included. */
    static final int LINE_BYTES = 1024;

    private static final String FILLER;

    static {
        char[] filler = new char[LINE_BYTES - 10 - 1 - 1];
        Arrays.fill(filler, 'x');
        FILLER = new String(filler);
    }

    private NumberedRecords() {}

    /** The line of record {@code number}, without the newline the sink's encoder appends. */
    static String line(long number) {
        return String.format("%010d %s", number, FILLER);
    }

    /** The record numbers in the lines of one committed file. */
    static long[] numbersIn(byte[] file) {
        String text = new String(file, StandardCharsets.UTF_8);
        if (text.isEmpty()) {
            return new long[0];
        }
        return text.lines()
                .mapToLong(line -> Long.parseLong(line.substring(0, 10)))
                .toArray();
    }
}
