package dev.flinks3.transfer;

/** A multipart upload that was started and neither completed nor aborted, as ListMultipartUploads shows it. */
public final class PendingUpload {

    private final String key;
    private final String uploadId;
    private final long initiatedMillis;

    public PendingUpload(String key, String uploadId, long initiatedMillis) {
        this.key = key;
        this.uploadId = uploadId;
        this.initiatedMillis = initiatedMillis;
    }

    public String key() {
        return key;
    }

    public String uploadId() {
        return uploadId;
    }

    /** When the upload was initiated, ms since the epoch (0 if unknown). */
    public long initiatedMillis() {
        return initiatedMillis;
    }

    @Override
    public String toString() {
        return "PendingUpload{key=" + key + ", uploadId=" + uploadId + "}";
    }
}
