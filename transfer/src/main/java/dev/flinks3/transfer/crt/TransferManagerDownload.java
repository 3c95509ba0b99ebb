package dev.flinks3.transfer.crt;

import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.aws.ClosedGuard;
import dev.flinks3.transfer.aws.S3Errors;
import dev.flinks3.transfer.aws.SseDecorator;
import dev.flinks3.transfer.bulk.FileDownload;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.transfer.s3.S3TransferManager;
import software.amazon.awssdk.transfer.s3.model.DownloadFileRequest;

/**
 * A file download of the CRT engine ({@code s3.client: crt}): one {@link S3TransferManager#downloadFile}
 * on the CRT-based S3 client, which splits it into parallel ranged GETs of its part size natively and
 * replaces an existing file. Thread-safe.
 */
public final class TransferManagerDownload implements FileDownload {

    private final S3TransferManager transferManager;
    private final SseDecorator sse;
    private final ClosedGuard closedGuard;

    /**
     * @param transferManager the Transfer Manager on the CRT-based S3 client; not owned
     * @param sse the encryption to apply to each GET (SSE-C needs the customer key)
     * @param closedGuard says when the owner of the Transfer Manager's client closed, so downloads fail saying so
     */
    public TransferManagerDownload(S3TransferManager transferManager, SseDecorator sse, ClosedGuard closedGuard) {
        this.transferManager = Objects.requireNonNull(transferManager, "transferManager");
        this.sse = Objects.requireNonNull(sse, "sse");
        this.closedGuard = Objects.requireNonNull(closedGuard, "closedGuard");
    }

    @Override
    public CompletableFuture<Void> start(S3Location source, Path target) {
        GetObjectRequest.Builder get =
                GetObjectRequest.builder().bucket(source.bucket()).key(source.key());
        sse.decorate(get);
        DownloadFileRequest request = DownloadFileRequest.builder()
                .getObjectRequest(get.build())
                .destination(target)
                .build();
        return closedGuard.send("GetObject", source, () -> {
            try {
                return S3Errors.translating(
                                transferManager.downloadFile(request).completionFuture(), "GetObject", source)
                        .thenApply(completed -> null);
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(S3Errors.translate("GetObject", source, e));
            }
        });
    }
}
