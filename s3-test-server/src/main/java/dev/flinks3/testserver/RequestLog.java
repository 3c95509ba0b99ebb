package dev.flinks3.testserver;

import java.util.ArrayList;
import java.util.List;

/**
 * Every S3 request the embedded server received, in arrival order. Tests use it to prove how a
 * client talks to S3: "the first UploadPart starts before close()", "one PutObject per small file".
 * Thread-safe: Jetty threads append while a test reads.
 */
public final class RequestLog {

    private final List<RequestRecord> entries = new ArrayList<>();

    synchronized void add(RequestRecord record) {
        entries.add(record);
    }

    /** A snapshot of all recorded requests in arrival order. */
    public synchronized List<RequestRecord> entries() {
        return List.copyOf(entries);
    }

    /** A snapshot of the recorded requests of one kind, in arrival order. */
    public synchronized List<RequestRecord> entries(RequestKind kind) {
        return entries.stream().filter(r -> r.kind() == kind).toList();
    }

    /** The number of recorded requests of one kind. */
    public synchronized long count(RequestKind kind) {
        return entries.stream().filter(r -> r.kind() == kind).count();
    }

    /** Forgets all recorded requests. */
    public synchronized void clear() {
        entries.clear();
    }
}
