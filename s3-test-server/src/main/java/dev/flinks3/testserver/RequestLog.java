package dev.flinks3.testserver;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The S3 requests the embedded server received: a count per {@link RequestKind} and, unless
 * disabled, every request in arrival order. Tests use it to prove how a client talks to S3 ("the
 * first UploadPart starts before close()", "one PutObject per small file"); a long benchmark server
 * keeps counts only, so its memory does not grow with the run. Thread-safe: Jetty threads append
 * while a test reads.
 */
public final class RequestLog {

    private final boolean keepEntries;
    private final List<RequestRecord> entries = new ArrayList<>();
    private final Map<RequestKind, Long> counts = new EnumMap<>(RequestKind.class);
    private final Map<RequestKind, Integer> inFlight = new EnumMap<>(RequestKind.class);
    private final Map<RequestKind, Integer> peakInFlight = new EnumMap<>(RequestKind.class);
    private final Map<RequestKind, Long> serveNanos = new EnumMap<>(RequestKind.class);

    RequestLog(boolean keepEntries) {
        this.keepEntries = keepEntries;
    }

    /** Records a request as it arrives; {@link #finished} must follow when it has been answered. */
    synchronized void started(RequestRecord record) {
        counts.merge(record.kind(), 1L, Long::sum);
        int now = inFlight.merge(record.kind(), 1, Integer::sum);
        peakInFlight.merge(record.kind(), now, Math::max);
        if (keepEntries) {
            entries.add(record);
        }
    }

    /** Records that a request has been answered, adding its time from arrival to answer to its kind's total. */
    synchronized void finished(RequestRecord record) {
        inFlight.merge(record.kind(), -1, Integer::sum);
        serveNanos.merge(record.kind(), System.nanoTime() - record.startNanos(), Long::sum);
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
        return counts.getOrDefault(kind, 0L);
    }

    /** The non-zero request counts by kind since start or the last {@link #clear()}. */
    public synchronized Map<RequestKind, Long> counts() {
        return Map.copyOf(counts);
    }

    /**
     * Per kind, the summed time from each request's arrival to its answer (emulated latency and
     * pacing included), in nanoseconds, since start or the last {@link #clear()}: where a client's
     * wall time went, e.g. the server copying parts together in CompleteMultipartUpload.
     */
    public synchronized Map<RequestKind, Long> serveNanos() {
        return Map.copyOf(serveNanos);
    }

    /**
     * The most requests of one kind that were being served at the same time since start or the last
     * {@link #clear()}: how many parts a client really had in flight, for example.
     */
    public synchronized int peakInFlight(RequestKind kind) {
        return peakInFlight.getOrDefault(kind, 0);
    }

    /** Forgets all recorded requests and counts; the in-flight peaks restart from what is in flight now. */
    public synchronized void clear() {
        entries.clear();
        counts.clear();
        serveNanos.clear();
        peakInFlight.clear();
        peakInFlight.putAll(inFlight);
    }
}
