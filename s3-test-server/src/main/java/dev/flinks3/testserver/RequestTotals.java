package dev.flinks3.testserver;

/**
 * What the server did for a set of requests (usually those of one {@link RequestKind}).
 *
 * @param requests how many requests arrived
 * @param serveNanos the summed time from each request's arrival to its answer, emulated latency and
 *     pacing included, in nanoseconds (added when a request has been answered)
 * @param bytesSent the bytes the server wrote into the answers' bodies, in bytes: for a GetObject the
 *     object's bytes actually sent, which may be fewer than a {@code Range} header asked for (added
 *     when a request has been answered; headers are not counted)
 */
public record RequestTotals(long requests, long serveNanos, long bytesSent) {

    /** No requests. */
    public static final RequestTotals NONE = new RequestTotals(0, 0, 0);

    /** These totals and {@code other}'s together. */
    public RequestTotals plus(RequestTotals other) {
        return new RequestTotals(requests + other.requests, serveNanos + other.serveNanos, bytesSent + other.bytesSent);
    }

    /** What was added between {@code earlier} and these totals. */
    public RequestTotals minus(RequestTotals earlier) {
        return new RequestTotals(
                requests - earlier.requests, serveNanos - earlier.serveNanos, bytesSent - earlier.bytesSent);
    }

    /** Whether nothing at all is counted. */
    public boolean isNone() {
        return equals(NONE);
    }
}
