package dev.flinks3.fs;

import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The check of {@code s3.sse.kms.check-on-create}: whether multipart uploads work in a bucket, tried when
 * its filesystem is created. With SSE-KMS, a PutObject needs only {@code kms:GenerateDataKey} while a
 * multipart upload also needs {@code kms:Decrypt} (Amazon S3 user guide, "Uploading and copying objects
 * using multipart upload", and the SSE-KMS permissions), so a key policy without it lets small files
 * through and fails the first file of more than one part, in a checkpoint. The check sends a
 * CreateMultipartUpload, one UploadPart of 1 byte and an AbortMultipartUpload for a probe key at the
 * bucket's root; it stores no object.
 */
final class MultipartUploadCheck {

    private static final Logger LOG = LoggerFactory.getLogger(MultipartUploadCheck.class);

    /** The probe key's prefix at the bucket's root; a random suffix follows. */
    static final String PROBE_KEY_PREFIX = ".flinks3-multipart-check-";

    private MultipartUploadCheck() {}

    /**
     * Starts a multipart upload of a probe key in {@code bucket}, uploads one part and aborts it.
     *
     * @throws IOException naming {@code s3.sse.kms.check-on-create} and the failed request (a 403 also
     *     names the KMS permissions) if any of the three fails
     */
    static void run(ObjectClient client, String scheme, String bucket) throws IOException {
        S3Location probe = S3Location.of(scheme, bucket, PROBE_KEY_PREFIX + UUID.randomUUID());
        String uploadId = null;
        try {
            uploadId = Futures.await(client.createMultipartUpload(probe), "CreateMultipartUpload", probe);
            Futures.await(client.uploadPart(probe, uploadId, 1, ByteBuffer.allocate(1)), "UploadPart", probe);
            String started = uploadId;
            uploadId = null;
            Futures.await(client.abortMultipartUpload(probe, started), "AbortMultipartUpload", probe);
            LOG.info("Multipart uploads work in {}://{}/ ({} checked at creation)", scheme, bucket, key());
        } catch (IOException e) {
            throw new IOException(
                    "The check of multipart uploads at creation ('" + key() + "') failed for " + scheme + "://" + bucket
                            + "/: " + e.getMessage(),
                    e);
        } finally {
            if (uploadId != null) {
                try {
                    Futures.await(client.abortMultipartUpload(probe, uploadId), "AbortMultipartUpload", probe);
                } catch (IOException abortFailed) {
                    LOG.warn(
                            "Could not abort the multipart upload {} of the check at {}", uploadId, probe, abortFailed);
                }
            }
        }
    }

    private static String key() {
        return S3ConfigOptions.SSE_KMS_CHECK_ON_CREATE.key();
    }
}
