package dev.flinks3.transfer.bulk;

import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.GetAnswer;
import dev.flinks3.transfer.GetRequest;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The download of one object to one local file with parallel ranged GETs (S3 user guide,
 * "Performance design patterns": fetch byte ranges in parallel), each one {@link
 * ObjectClient#get} into the file ({@link GetRequest#intoFile}). The file is created empty (or emptied), then the first GET learns the
 * object's length and ETag from its answer (and, with a {@link Plan#byFirstGet} plan, the connection's rate,
 * which decides how large the other ranges are and on how many lanes they run); the other ranges then go out on
 * their parallel lanes, each writing at its own offset and sending {@code If-Match} with that ETag, so an object
 * replaced mid-download fails instead of mixing two versions.
 *
 * <p>Ranged GETs work on every S3-compatible server; the part-number GETs the SDK's multipart
 * download uses do not (S3Proxy answers 501). One instance per file and attempt; thread-safe.
 */
final class RangedFileDownload {

    /**
     * How a file is split: the size of its first GET, and from that GET's rate the size of the other ranges and the
     * lanes they run on. Immutable.
     */
    static final class Plan {
        private final long firstBytes;
        private final long fastRangeBytes;
        private final int fastLanes;
        private final long slowRangeBytes;
        private final int slowLanes;
        private final long fastBytesPerSecond;

        private Plan(
                long firstBytes,
                long fastRangeBytes,
                int fastLanes,
                long slowRangeBytes,
                int slowLanes,
                long fastBytesPerSecond) {
            this.firstBytes = firstBytes;
            this.fastRangeBytes = fastRangeBytes;
            this.fastLanes = fastLanes;
            this.slowRangeBytes = slowRangeBytes;
            this.slowLanes = slowLanes;
            this.fastBytesPerSecond = fastBytesPerSecond;
        }

        /** Ranges of {@code rangeBytes} on {@code lanes} lanes, whatever the rate. */
        static Plan fixed(long rangeBytes, int lanes) {
            return new Plan(rangeBytes, rangeBytes, lanes, rangeBytes, lanes, 0);
        }

        /**
         * A first GET of {@code rangeBytes}; after it, ranges of {@code fastRangeBytes} on one lane if it came at
         * {@code fastBytesPerSecond} or more, else ranges of {@code rangeBytes} on {@code slowLanes} lanes.
         */
        static Plan byFirstGet(long rangeBytes, long fastRangeBytes, int slowLanes, long fastBytesPerSecond) {
            return new Plan(rangeBytes, fastRangeBytes, 1, rangeBytes, slowLanes, fastBytesPerSecond);
        }

        /** Whether {@code bytes} in {@code nanos} ns is a fast connection's rate. */
        boolean fast(long bytes, long nanos) {
            return fastBytesPerSecond == 0
                    || (fastBytesPerSecond != Long.MAX_VALUE
                            && (nanos <= 0 || bytes * 1_000_000_000.0 / nanos >= fastBytesPerSecond));
        }
    }

    private final ObjectClient client;
    private final S3Location source;
    private final Path target;
    private final Plan plan;
    private final AtomicInteger nextRange = new AtomicInteger(1);
    private final Set<CompletableFuture<GetAnswer>> inFlight = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<Void> result = new CompletableFuture<>();

    /**
     * @param client the client to send with; not owned
     * @param plan how the file is split into ranged GETs
     */
    RangedFileDownload(ObjectClient client, S3Location source, Path target, Plan plan) {
        this.client = client;
        this.source = source;
        this.target = target;
        this.plan = plan;
    }

    /**
     * Starts the download. The future completes when the file holds exactly the object's bytes, or
     * fails with the first failure ({@link java.io.FileNotFoundException} for a missing object,
     * {@link S3RequestException} otherwise, naming the location; status 412 if the object was replaced
     * during the download). Cancelling it cancels the GETs in flight. A failed or cancelled download
     * leaves a partial file for the caller to delete.
     */
    CompletableFuture<Void> start() {
        result.whenComplete((done, failure) -> {
            if (failure != null) {
                inFlight.forEach(get -> get.cancel(true));
            }
        });
        try {
            Files.write(target, new byte[0]);
        } catch (IOException e) {
            result.completeExceptionally(e);
            return result;
        }
        // A failure of this or any later GET fails the result (see get).
        long began = System.nanoTime();
        get(0, plan.firstBytes, null).thenAccept(first -> continueAfter(first, System.nanoTime() - began));
        return result;
    }

    private void continueAfter(GetAnswer first, long nanos) {
        long length = first.objectLength();
        if (length < 0) {
            result.completeExceptionally(new S3RequestException(
                    "GetObject",
                    source.toString(),
                    206,
                    null,
                    "The server did not say the object's length in Content-Range",
                    null));
            return;
        }
        if (length <= plan.firstBytes) {
            // The first answer held the whole object.
            finish(length);
            return;
        }
        boolean fast = plan.fast(first.bytes(), nanos);
        long rangeBytes = fast ? plan.fastRangeBytes : plan.slowRangeBytes;
        int lanes = fast ? plan.fastLanes : plan.slowLanes;
        // Ranges after the first, which took [0, firstBytes).
        int ranges = (int) ((length - plan.firstBytes + rangeBytes - 1) / rangeBytes);
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (int i = 0; i < Math.min(lanes, ranges); i++) {
            running.add(lane(ranges, rangeBytes, length, first.eTag()));
        }
        CompletableFuture.allOf(running.toArray(new CompletableFuture<?>[0])).whenComplete((done, failure) -> {
            if (failure == null) {
                finish(length);
            }
        });
    }

    /** Fetches ranges one after the other until none is left or the download failed. */
    private CompletableFuture<Void> lane(int ranges, long rangeBytes, long length, String eTag) {
        int index = nextRange.getAndIncrement() - 1;
        if (index >= ranges || result.isDone()) {
            return CompletableFuture.completedFuture(null);
        }
        long start = plan.firstBytes + index * rangeBytes;
        return get(start, Math.min(start + rangeBytes, length), eTag)
                .thenCompose(written -> lane(ranges, rangeBytes, length, eTag));
    }

    private CompletableFuture<GetAnswer> get(long start, long endExclusive, String eTag) {
        CompletableFuture<GetAnswer> get;
        try {
            get = client.get(
                    GetRequest.intoFile(source, start, endExclusive, target).ifMatch(eTag));
        } catch (RuntimeException e) {
            get = CompletableFuture.failedFuture(e);
        }
        inFlight.add(get);
        CompletableFuture<GetAnswer> sent = get;
        get.whenComplete((written, failure) -> {
            inFlight.remove(sent);
            if (failure != null) {
                result.completeExceptionally(Futures.unwrap(failure));
            }
        });
        if (result.isDone()) {
            // Started while the download failed elsewhere.
            get.cancel(true);
        }
        return get;
    }

    private void finish(long length) {
        try {
            long written = Files.size(target);
            if (written != length) {
                throw new IOException("Downloading " + source + " to " + target + " wrote " + written
                        + " bytes, the object has " + length);
            }
            result.complete(null);
        } catch (IOException e) {
            result.completeExceptionally(e);
        }
    }
}
