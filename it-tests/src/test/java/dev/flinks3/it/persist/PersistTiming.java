package dev.flinks3.it.persist;

/**
 * One contender run of {@link PersistBenchmark}: milliseconds to open the stream, to write the bytes and
 * for {@code persist()}, and what the untimed commit and read-back gave ({@code verified},
 * {@code wrong-bytes} or {@code commit-failed}).
 */
record PersistTiming(String fileSystemClass, double openMillis, double writeMillis, double persistMillis, long bytes,
        String outcome) {

    /** Parses a {@link PersistContender#RESULT} line. */
    static PersistTiming parse(String line) {
        String[] words = line.split(" ");
        if (words.length != 7 || !words[0].equals(PersistContender.RESULT)) {
            throw new IllegalArgumentException("not a result line: " + line);
        }
        return new PersistTiming(words[1], Double.parseDouble(words[2]), Double.parseDouble(words[3]),
                Double.parseDouble(words[4]), Long.parseLong(words[5]), words[6]);
    }

    /** Open, write and persist: how long until the written bytes are durable. */
    double durableMillis() {
        return openMillis + writeMillis + persistMillis;
    }
}
