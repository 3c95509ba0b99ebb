package dev.flinks3.multipart.crt;

import dev.flinks3.multipart.ConditionProbes;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.transfer.s3.S3TransferManager;
import software.amazon.awssdk.transfer.s3.model.UploadRequest;

/**
 * Whether the S3 server takes an upload body in {@code aws-chunked} encoding with a trailing checksum, the
 * way the CRT-based S3 client sends every part of a Transfer Manager upload ({@code x-amz-trailer:
 * x-amz-checksum-crc32c}, the CRC32C after the last chunk). That a server echoes a CRC32C sent as a header
 * does not show it: Ceph RGW 16.2 checks header checksums and refuses every trailer ({@code 400
 * XAmzContentSHA256Mismatch}). So the probe sends what the streams would send: one small PutObject through
 * the same Transfer Manager with a CRC32C, which the client sends as a trailer, next to the first key a
 * stream outgrows one part at, and deletes the object again.
 *
 * <p>An error answer of the server (a 4xx other than 403, 404, 408 and 429, which say nothing about the
 * encoding) is its refusal, kept for good; an accepted PutObject is kept for good too. Anything else (no
 * answer, a 5xx, a timeout) decides nothing: the stream at hand goes to our engine and the next one probes
 * again. Thread-safe: concurrent first streams may each probe once.
 */
final class TrailerProbe {

    private static final Logger LOG = LoggerFactory.getLogger(TrailerProbe.class);

    /** What a probe key adds to the key it is probed next to; a random suffix follows. */
    static final String PROBE_KEY_SUFFIX = ".flinks3-trailer-probe-";
    /** The probe's body: a few bytes, one chunk and its trailer. */
    private static final byte[] BODY = {'f', 'l', 'i', 'n', 'k', 's', '3'};
    /** Longest wait for the probe's PutObject, in seconds. */
    private static final long WAIT_SECONDS = 60;

    private final S3TransferManager transferManager;
    private final ObjectClient client;
    private final Function<S3Location, PutObjectRequest.Builder> request;
    /** Null until a probe got the server's answer. */
    private volatile Boolean accepted;

    /**
     * @param transferManager the Transfer Manager whose client sends the streams' parts; not owned
     * @param client the seam of the same configuration, to delete the probe object; not owned
     * @param request the PutObjectRequest a stream to a location would send (checksum algorithm, encryption)
     */
    TrailerProbe(
            S3TransferManager transferManager,
            ObjectClient client,
            Function<S3Location, PutObjectRequest.Builder> request) {
        this.transferManager = transferManager;
        this.client = client;
        this.request = request;
    }

    /**
     * True if the server took a body with a trailing checksum (probing next to {@code near} the first time);
     * false if it refused one, or if the probe got no answer this time.
     */
    boolean accepted(S3Location near) {
        Boolean known = accepted;
        if (known != null) {
            return known;
        }
        S3Location probe;
        try {
            probe = ConditionProbes.keyNear(near, PROBE_KEY_SUFFIX, "trailing-checksum");
        } catch (IOException noKeyFits) {
            LOG.debug("No trailing-checksum probe beside {}; our engine takes the stream", near, noKeyFits);
            return false;
        }
        try {
            transferManager
                    .upload(UploadRequest.builder()
                            .putObjectRequest(request.apply(probe).build())
                            .requestBody(AsyncRequestBody.fromBytes(BODY))
                            .build())
                    .completionFuture()
                    .get(WAIT_SECONDS, TimeUnit.SECONDS);
            accepted = true;
            delete(probe);
            return true;
        } catch (ExecutionException e) {
            AwsServiceException answer = serverAnswer(e);
            if (answer != null && refusesEncoding(answer.statusCode())) {
                accepted = false;
                LOG.warn(
                        "This S3 server refused an upload body with a trailing checksum (aws-chunked with"
                                + " x-amz-trailer, as the CRT-based S3 client sends each part: {} {}): files"
                                + " written through FileSystem.create() are uploaded by the plugin's multipart"
                                + " engine, whose checksums go as headers, instead of the Transfer Manager",
                        answer.statusCode(),
                        answer.awsErrorDetails() == null
                                ? answer.getMessage()
                                : answer.awsErrorDetails().errorCode());
                return false;
            }
            LOG.debug("The trailing-checksum probe at {} got no answer; our engine takes the stream", probe, e);
            delete(probe);
            return false;
        } catch (TimeoutException e) {
            LOG.debug("The trailing-checksum probe at {} timed out; our engine takes the stream", probe, e);
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A 4xx that is about the request itself, not about access, existence, time or rate. */
    private static boolean refusesEncoding(int status) {
        return status >= 400 && status < 500 && status != 403 && status != 404 && status != 408 && status != 429;
    }

    private static AwsServiceException serverAnswer(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof AwsServiceException) {
                return (AwsServiceException) t;
            }
        }
        return null;
    }

    private void delete(S3Location probe) {
        try {
            client.delete(probe);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Could not delete the trailing-checksum probe object {}; it may be deleted by hand", probe, e);
        }
    }
}
