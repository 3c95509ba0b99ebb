package dev.flinks3.bench.soak;

/**
 * The multipart uploads open at the S3 server under the soak's prefix at one moment (ListMultipartUploads), split
 * by whether each was open at a TaskManager stop already: those were open when a process was killed or its tasks
 * cancelled and are still open, so no live stream will complete them (abandoned: the killed TaskManager's
 * checkpoint streams and sink part files); the others were started since the last stop.
 *
 * @param epochMillis when the listing was read
 * @param open every upload open under the prefix
 * @param abandoned those of them that were open at a stop already
 */
public record ServerSample(long epochMillis, long open, long abandoned) {

    /** The uploads started since the last stop (open minus abandoned). */
    public long live() {
        return open - abandoned;
    }
}
