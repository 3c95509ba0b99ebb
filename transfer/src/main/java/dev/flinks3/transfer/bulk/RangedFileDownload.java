package dev.flinks3.transfer.bulk;

import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.RangeDownload;
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
 * ObjectClient#readIntoFile}. The file is created empty (or emptied), then the first GET learns the
 * object's length and ETag from its answer; the other ranges then go out on a few parallel lanes,
 * each writing at its own offset and sending {@code If-Match} with that ETag, so an object replaced
 * mid-download fails instead of mixing two versions.
 *
 * <p>Ranged GETs work on every S3-compatible server; the part-number GETs the SDK's multipart
 * download uses do not (S3Proxy answers 501). One instance per file and attempt; thread-safe.
 */
final class RangedFileDownload {

    private final ObjectClient client;
    private final S3Location source;
    private final Path target;
    private final long rangeBytes;
    private final int lanes;
    private final AtomicInteger nextRange = new AtomicInteger(1);
    private final Set<CompletableFuture<RangeDownload>> inFlight = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<Void> result = new CompletableFuture<>();

    /**
     * @param client the client to send with; not owned
     * @param rangeBytes bytes per ranged GET
     * @param lanes ranged GETs of this file in flight at once after the first
     */
    RangedFileDownload(ObjectClient client, S3Location source, Path target, long rangeBytes, int lanes) {
        this.client = client;
        this.source = source;
        this.target = target;
        this.rangeBytes = rangeBytes;
        this.lanes = lanes;
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
        get(0, rangeBytes, null).thenAccept(this::continueAfter);
        return result;
    }

    private void continueAfter(RangeDownload first) {
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
        if (length <= rangeBytes) {
            // The first answer held the whole object.
            finish(length);
            return;
        }
        int ranges = (int) ((length + rangeBytes - 1) / rangeBytes);
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (int i = 0; i < Math.min(lanes, ranges - 1); i++) {
            running.add(lane(ranges, length, first.eTag()));
        }
        CompletableFuture.allOf(running.toArray(new CompletableFuture<?>[0])).whenComplete((done, failure) -> {
            if (failure == null) {
                finish(length);
            }
        });
    }

    /** Fetches ranges one after the other until none is left or the download failed. */
    private CompletableFuture<Void> lane(int ranges, long length, String eTag) {
        int index = nextRange.getAndIncrement();
        if (index >= ranges || result.isDone()) {
            return CompletableFuture.completedFuture(null);
        }
        long start = index * rangeBytes;
        return get(start, Math.min(start + rangeBytes, length), eTag)
                .thenCompose(written -> lane(ranges, length, eTag));
    }

    private CompletableFuture<RangeDownload> get(long start, long endExclusive, String eTag) {
        CompletableFuture<RangeDownload> get;
        try {
            get = client.readIntoFile(source, start, endExclusive, target, eTag);
        } catch (RuntimeException e) {
            get = CompletableFuture.failedFuture(e);
        }
        inFlight.add(get);
        CompletableFuture<RangeDownload> sent = get;
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
