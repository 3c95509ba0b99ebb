package dev.flinks3.testserver;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The S3 requests the embedded server received: {@link RequestTotals} per {@link RequestKind}
 * (requests, serve time, bytes sent) and, unless disabled, every request in arrival order. Tests use
 * it to prove how a client talks to S3 ("the first UploadPart starts before close()", "one PutObject
 * per small file"); a long benchmark server keeps the totals only, so its memory does not grow with
 * the run. Thread-safe: Jetty threads append
 * while a test reads.
 */
public final class RequestLog {

    private final boolean keepEntries;
    private final List<RequestRecord> entries = new ArrayList<>();
    private final Map<RequestKind, RequestTotals> totals = new EnumMap<>(RequestKind.class);
    private final Map<RequestKind, Integer> inFlight = new EnumMap<>(RequestKind.class);
    private final Map<RequestKind, Integer> peakInFlight = new EnumMap<>(RequestKind.class);
    /** Per kind, the objects ({@code bucket/key}) with requests being served now, and how many each. */
    private final Map<RequestKind, Map<String, Integer>> objectsInFlight = new EnumMap<>(RequestKind.class);

    private final Map<RequestKind, Integer> peakObjectsInFlight = new EnumMap<>(RequestKind.class);

    RequestLog(boolean keepEntries) {
        this.keepEntries = keepEntries;
    }

    /** Records a request as it arrives; {@link #finished} must follow when it has been answered. */
    synchronized void started(RequestRecord record) {
        totals.merge(record.kind(), new RequestTotals(1, 0, 0), RequestTotals::plus);
        int now = inFlight.merge(record.kind(), 1, Integer::sum);
        peakInFlight.merge(record.kind(), now, Math::max);
        Map<String, Integer> objects = objectsInFlight.computeIfAbsent(record.kind(), k -> new HashMap<>());
        objects.merge(objectOf(record), 1, Integer::sum);
        peakObjectsInFlight.merge(record.kind(), objects.size(), Math::max);
        if (keepEntries) {
            entries.add(record);
        }
    }

    /**
     * Records that a request has been answered, adding its time from arrival to answer and the bytes
     * of its answer's body to its kind's totals.
     */
    synchronized void finished(RequestRecord record, long bytesSent) {
        inFlight.merge(record.kind(), -1, Integer::sum);
        objectsInFlight.get(record.kind()).computeIfPresent(objectOf(record), (object, n) -> n == 1 ? null : n - 1);
        totals.merge(
                record.kind(),
                new RequestTotals(0, System.nanoTime() - record.startNanos(), bytesSent),
                RequestTotals::plus);
    }

    /** A snapshot of all recorded requests in arrival order; empty if the server keeps counts only. */
    public synchronized List<RequestRecord> entries() {
        return List.copyOf(entries);
    }

    /** A snapshot of the recorded requests of one kind, in arrival order; empty if the server keeps counts only. */
    public synchronized List<RequestRecord> entries(RequestKind kind) {
        return entries.stream().filter(r -> r.kind() == kind).toList();
    }

    /** The number of requests of one kind since start or the last {@link #clear()}. */
    public synchronized long count(RequestKind kind) {
        return totals.getOrDefault(kind, RequestTotals.NONE).requests();
    }

    /** The non-zero request counts by kind since start or the last {@link #clear()}. */
    public synchronized Map<RequestKind, Long> counts() {
        Map<RequestKind, Long> counts = new EnumMap<>(RequestKind.class);
        totals.forEach((kind, t) -> {
            if (t.requests() != 0) {
                counts.put(kind, t.requests());
            }
        });
        return Map.copyOf(counts);
    }

    /**
     * Per kind, the summed time from each request's arrival to its answer (emulated latency and
     * pacing included), in nanoseconds, since start or the last {@link #clear()}: where a client's
     * wall time went, e.g. the server copying parts together in CompleteMultipartUpload.
     */
    public synchronized Map<RequestKind, Long> serveNanos() {
        Map<RequestKind, Long> serveNanos = new EnumMap<>(RequestKind.class);
        totals.forEach((kind, t) -> serveNanos.put(kind, t.serveNanos()));
        return Map.copyOf(serveNanos);
    }

    /**
     * Requests, serve time and bytes sent per kind since start or the last {@link #clear()}: the
     * figures a benchmark reads, here in the server's JVM and over {@code GET /__flinks3/requests}
     * from another. A request's serve time and bytes are added once it has been answered.
     */
    public synchronized RequestSummary summary() {
        return new RequestSummary(totals);
    }

    /**
     * The most requests of one kind that were being served at the same time since start or the last
     * {@link #clear()}: how many parts a client really had in flight, for example.
     */
    public synchronized int peakInFlight(RequestKind kind) {
        return peakInFlight.getOrDefault(kind, 0);
    }

    /**
     * The most distinct objects (bucket and key) that had a request of one kind being served at the same
     * time since start or the last {@link #clear()}: how many files a client fetched at once, however
     * many ranged GETs it sent for each.
     */
    public synchronized int peakObjectsInFlight(RequestKind kind) {
        return peakObjectsInFlight.getOrDefault(kind, 0);
    }

    /**
     * How many requests are being served now: arrived, not yet answered. Their serve time and bytes
     * are not in {@link #summary()} yet; a test waits for 0 before reading it, since a client may have
     * its answer a moment before the server has recorded it as answered.
     */
    public synchronized int inFlight() {
        return inFlight.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** Forgets all recorded requests and counts; the in-flight peaks restart from what is in flight now. */
    public synchronized void clear() {
        entries.clear();
        totals.clear();
        peakInFlight.clear();
        peakInFlight.putAll(inFlight);
        peakObjectsInFlight.clear();
        objectsInFlight.forEach((kind, objects) -> peakObjectsInFlight.put(kind, objects.size()));
    }

    private static String objectOf(RequestRecord record) {
        return record.bucket() + "/" + record.key();
    }
}
