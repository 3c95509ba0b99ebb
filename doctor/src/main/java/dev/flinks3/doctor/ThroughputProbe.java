package dev.flinks3.doctor;

import dev.flinks3.fs.S3ConfigOptions;
import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.WriteCondition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * A short look at speed, under the probes' temporary prefix: the round trip of small requests (10 HEADs, the
 * median), and the rate of {@value #OBJECTS} objects of {@value #OBJECT_MIB} MiB written and read back one at a
 * time, then all at once. What it suggests follows from the ratio: a store whose rate grows with connections is
 * bound per connection, which the plugin's parallel parts and read-ahead windows use. A few seconds on a LAN; not
 * a benchmark.
 */
final class ThroughputProbe {

    static final String SECTION = "throughput";
    static final int OBJECTS = 4;
    static final int OBJECT_MIB = 8;

    private ThroughputProbe() {}

    static void run(Report report, ObjectClient client, S3Settings settings, S3Location base) {
        byte[] data = new byte[OBJECT_MIB * 1024 * 1024];
        new java.util.Random(7).nextBytes(data);
        List<S3Location> objects = new ArrayList<>();
        for (int i = 0; i < OBJECTS; i++) {
            objects.add(base.withKey(base.key() + "throughput-" + i));
        }
        try {
            Futures.await(client.put(objects.get(0), ByteBuffer.wrap(data), WriteCondition.NONE), "PutObject", base);
            long[] heads = new long[10];
            for (int i = 0; i < heads.length; i++) {
                long start = System.nanoTime();
                client.head(objects.get(0));
                heads[i] = System.nanoTime() - start;
            }
            Arrays.sort(heads);
            double headMs = heads[heads.length / 2] / 1e6;

            long start = System.nanoTime();
            for (S3Location object : objects) {
                Futures.await(client.put(object, ByteBuffer.wrap(data), WriteCondition.NONE), "PutObject", object);
            }
            double writeOne = rate(start);
            start = System.nanoTime();
            for (S3Location object : objects) {
                Futures.await(client.readInto(object, 0, ByteBuffer.allocate(data.length)), "GetObject", object);
            }
            double readOne = rate(start);
            start = System.nanoTime();
            List<CompletableFuture<?>> writes = new ArrayList<>();
            for (S3Location object : objects) {
                writes.add(client.put(object, ByteBuffer.wrap(data), WriteCondition.NONE));
            }
            Futures.await(CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0])), "PutObject", base);
            double writeMany = rate(start);
            start = System.nanoTime();
            List<CompletableFuture<?>> reads = new ArrayList<>();
            for (S3Location object : objects) {
                reads.add(client.readInto(object, 0, ByteBuffer.allocate(data.length)));
            }
            Futures.await(CompletableFuture.allOf(reads.toArray(new CompletableFuture<?>[0])), "GetObject", base);
            double readMany = rate(start);

            report.add(Check.ok(
                    SECTION, "latency", String.format(Locale.ROOT, "HEAD round trip %.1f ms (median of 10)", headMs)));
            report.add(Check.ok(
                    SECTION,
                    "one connection",
                    String.format(
                            Locale.ROOT,
                            "write %.0f MB/s, read %.0f MB/s (%d x %d MiB, one at a time)",
                            writeOne,
                            readOne,
                            OBJECTS,
                            OBJECT_MIB)));
            report.add(Check.ok(
                    SECTION,
                    OBJECTS + " connections",
                    String.format(Locale.ROOT, "write %.0f MB/s, read %.0f MB/s (all at once)", writeMany, readMany)));
            report.add(Check.ok(
                    SECTION, "suggestion", suggestion(settings, headMs, writeOne, writeMany, readOne, readMany)));
        } catch (IOException e) {
            report.add(Check.warning(
                    SECTION,
                    "throughput",
                    "the probe failed: " + CredentialChecks.firstLine(e.getMessage()),
                    "see the store's checks above"));
        }
    }

    static String suggestion(
            S3Settings settings, double headMs, double writeOne, double writeMany, double readOne, double readMany) {
        List<String> advice = new ArrayList<>();
        if (writeMany > 1.5 * writeOne || readMany > 1.5 * readOne) {
            advice.add("the store is faster with more connections: keep several parts in flight per stream"
                    + " (" + S3ConfigOptions.MAX_PARTS_IN_FLIGHT.key() + ", now "
                    + settings.upload().maxPartsInFlightPerStream()
                    + ") and " + S3ConfigOptions.MAX_CONNECTIONS.key() + " (now "
                    + settings.client().maxConnections()
                    + ") at least slots x parts in flight");
        } else {
            advice.add("one connection already takes what the store gives: more connections will not speed up a"
                    + " stream; larger parts (" + S3ConfigOptions.PART_SIZE.key() + ", now "
                    + settings.upload().partSizeBytes() / (1024 * 1024)
                    + " MiB) mean fewer requests");
        }
        if (headMs > 20) {
            advice.add(String.format(
                    Locale.ROOT,
                    "a %.0f ms round trip makes small reads expensive: a larger" + " "
                            + S3ConfigOptions.READ_AHEAD_SIZE.key() + " keeps sequential reads streaming",
                    headMs));
        }
        return String.join("; ", advice);
    }

    private static double rate(long startNanos) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        return OBJECTS * (double) OBJECT_MIB * 1024 * 1024 / 1e6 / Math.max(seconds, 1e-6);
    }
}
