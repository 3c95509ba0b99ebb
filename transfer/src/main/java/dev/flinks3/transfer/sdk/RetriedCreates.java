package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.S3Location;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.SdkGlobalTime;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/**
 * Aborts the uploads a retried CreateMultipartUpload left at the server.
 *
 * <p>S3 creates an upload for every CreateMultipartUpload it serves. When the answer is lost after the server
 * acted (the connection reset before the answer arrived, or the answer held past the attempt timeout), the SDK
 * sends the request again and S3 creates a second upload; the id of the first never reaches the plugin, so
 * nobody completes or aborts it and it stays until a bucket lifecycle rule removes it. The 2-hour soak of
 * 2026-12-07, on a server that lost about 1% of its answers, counted 5.6 such uploads per hour.
 *
 * <p>After a create that took more than one attempt ({@link CreateAttempts}), the key's uploads are listed
 * (ListMultipartUploads with the key as prefix) and those of exactly that key, other than the one the create
 * returned, initiated between the first attempt and the listing, are aborted. An attempt the client gave up on
 * may also be served later than the attempt that answered: a request held in a queue before the server acts on it
 * (the soak's server holds answers so, for 12 s). So the key is listed twice: at once, and again {@code
 * lateListing} later (twice the attempt timeout), each listing aborting what it finds in the window up to its own
 * time. The window is widened by the clock offset the SDK measured and {@link #MARGIN_MS} either side. Another
 * writer's upload of the same key begun in that window would be aborted too; Flink writes each checkpoint file
 * and part file under a key of its own. Runs in the background; a failure is logged and changes nothing else.
 */
final class RetriedCreates {

    /** Slack on either side of the window, for the server's and this host's clocks, in ms. */
    static final long MARGIN_MS = 5_000;

    private static final Logger LOG = LoggerFactory.getLogger(RetriedCreates.class);

    private final S3AsyncClient s3;
    private final SdkCalls calls;
    private final BiFunction<S3Location, String, CompletableFuture<Void>> abort;
    private final Executor late;

    /**
     * @param abort the client's AbortMultipartUpload of (key, upload id): sent despite an interrupt, an upload
     *     already gone counted as aborted
     * @param scheduler runs the late listing; not owned
     * @param lateListing how long after the first listing the key is listed again
     */
    RetriedCreates(
            S3AsyncClient s3,
            SdkCalls calls,
            BiFunction<S3Location, String, CompletableFuture<Void>> abort,
            ScheduledExecutorService scheduler,
            Duration lateListing) {
        this.s3 = s3;
        this.calls = calls;
        this.abort = abort;
        long delay = lateListing.toMillis();
        this.late = task -> scheduler.schedule(task, delay, TimeUnit.MILLISECONDS);
    }

    /**
     * If the create behind {@code count} was sent more than once, aborts the other uploads it made; else does
     * nothing.
     *
     * @param location the key the upload is for
     * @param kept the upload id the create returned
     * @return the number of uploads aborted by both listings, complete after the late one; never fails (a failure
     *     is logged and counts 0)
     */
    CompletableFuture<Integer> abortDuplicates(S3Location location, String kept, CreateAttempts.Count count) {
        if (count.attempts() <= 1) {
            return CompletableFuture.completedFuture(0);
        }
        return listAndAbort(location, kept, count)
                .thenComposeAsync(now -> listAndAbort(location, kept, count).thenApply(later -> now + later), late);
    }

    private CompletableFuture<Integer> listAndAbort(S3Location location, String kept, CreateAttempts.Count count) {
        long offsetMillis = Math.abs(SdkGlobalTime.getGlobalTimeOffset()) * 1000L;
        long from = count.startMillis() - offsetMillis - MARGIN_MS;
        long to = System.currentTimeMillis() + offsetMillis + MARGIN_MS;
        return calls.send(
                        "ListMultipartUploads",
                        location,
                        () -> s3.listMultipartUploads(
                                b -> b.bucket(location.bucket()).prefix(location.key())))
                .thenCompose(page -> abort(location, duplicates(page, location.key(), kept, from, to)))
                .exceptionally(failure -> {
                    LOG.warn(
                            "CreateMultipartUpload of {} was sent {} times; the uploads the earlier attempts may"
                                    + " have created could not be listed or aborted (a bucket lifecycle rule for"
                                    + " incomplete multipart uploads removes them)",
                            location,
                            count.attempts(),
                            Futures.unwrap(failure));
                    return 0;
                });
    }

    /** Uploads of exactly {@code key}, other than {@code kept}, initiated within [from, to] (ms since the epoch). */
    static List<String> duplicates(ListMultipartUploadsResponse page, String key, String kept, long from, long to) {
        return page.uploads().stream()
                .filter(upload -> key.equals(upload.key()) && !kept.equals(upload.uploadId()))
                .filter(upload -> within(upload.initiated(), from, to))
                .map(MultipartUpload::uploadId)
                .collect(Collectors.toList());
    }

    private static boolean within(Instant initiated, long from, long to) {
        return initiated != null && initiated.toEpochMilli() >= from && initiated.toEpochMilli() <= to;
    }

    private CompletableFuture<Integer> abort(S3Location location, List<String> uploadIds) {
        CompletableFuture<?>[] aborts =
                uploadIds.stream().map(id -> abort.apply(location, id)).toArray(CompletableFuture<?>[]::new);
        return CompletableFuture.allOf(aborts).thenApply(done -> {
            if (!uploadIds.isEmpty()) {
                LOG.info(
                        "Aborted {} upload(s) of {} that a retried CreateMultipartUpload had created",
                        uploadIds.size(),
                        location);
            }
            return uploadIds.size();
        });
    }
}
