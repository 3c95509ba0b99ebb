package dev.flinks3.multipart;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.WriteCondition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a server honours {@code If-None-Match: *} (S3 conditional writes: 412 when the key exists), found out
 * with objects of its own next to a location, removed afterwards: some servers accept the header and ignore it
 * (Ceph RGW 16.2 on CompleteMultipartUpload, MinIO releases of 2022-2024, SeaweedFS), so no answer but a refused
 * overwrite shows it. The upload engine probes once before its first conditional write; the {@code doctor}
 * command runs the same probes. Each probe's object is deleted also after a failed probe; a delete that fails
 * leaves it, with a warning naming it.
 */
public final class ConditionProbes {

    private static final Logger LOG = LoggerFactory.getLogger(ConditionProbes.class);

    /** What a probe key adds to the key it is probed next to; a random suffix follows. */
    public static final String PROBE_KEY_SUFFIX = ".flinks3-if-none-match-probe-";

    private ConditionProbes() {}

    /**
     * Puts an object next to {@code near}, then a conditional PutObject onto it.
     *
     * @return true if the server refused the overwrite (honours the condition on PutObject)
     * @throws IOException if a request of the probe fails otherwise
     */
    public static boolean putRefusesOverwrite(ObjectClient client, S3Location near) throws IOException {
        S3Location probe = probeNear(near);
        try {
            Futures.await(client.put(probe, ByteBuffer.allocate(1), WriteCondition.NONE), "PutObject", probe);
            Futures.await(client.put(probe, ByteBuffer.allocate(2), WriteCondition.IF_NONE_MATCH), "PutObject", probe);
            return false;
        } catch (FileAlreadyExistsException refused) {
            return true;
        } finally {
            remove(client, probe);
        }
    }

    /**
     * Puts an object next to {@code near}, then completes a one-part upload onto it with the condition.
     *
     * @return true if the server refused the overwrite (honours the condition on CompleteMultipartUpload)
     * @throws IOException if a request of the probe fails otherwise
     */
    public static boolean completionRefusesOverwrite(ObjectClient client, S3Location near) throws IOException {
        S3Location probe = probeNear(near);
        String uploadId = null;
        try {
            Futures.await(client.put(probe, ByteBuffer.allocate(1), WriteCondition.NONE), "PutObject", probe);
            uploadId = Futures.await(client.createMultipartUpload(probe), "CreateMultipartUpload", probe);
            CompletedPart part =
                    Futures.await(client.uploadPart(probe, uploadId, 1, ByteBuffer.allocate(2)), "UploadPart", probe);
            try {
                Futures.await(
                        client.completeMultipartUpload(probe, uploadId, List.of(part), WriteCondition.IF_NONE_MATCH),
                        "CompleteMultipartUpload",
                        probe);
                uploadId = null;
                return false;
            } catch (FileAlreadyExistsException refused) {
                return true;
            }
        } finally {
            if (uploadId != null) {
                Futures.quietly(client.abortMultipartUpload(probe, uploadId));
            }
            remove(client, probe);
        }
    }

    private static S3Location probeNear(S3Location near) throws IOException {
        return keyNear(near, PROBE_KEY_SUFFIX, "If-None-Match");
    }

    /**
     * A fresh probe key beside {@code near}: its key with {@code suffix} and a random UUID, or, where that would
     * pass S3's key limit, a hidden name of the probe's own in {@code near}'s directory.
     *
     * @param what the probe's name for the error, e.g. {@code If-None-Match}
     * @throws IOException naming the length and the limit if not even that fits
     */
    public static S3Location keyNear(S3Location near, String suffix, String what) throws IOException {
        String unique = suffix + UUID.randomUUID();
        String key = near.key() + unique;
        if (utf8Length(key) > S3Location.MAX_KEY_BYTES) {
            key = near.key().substring(0, near.key().lastIndexOf('/') + 1) + unique;
        }
        if (utf8Length(key) > S3Location.MAX_KEY_BYTES) {
            throw new IOException("No " + what + " probe fits beside " + near + ": its key would be " + utf8Length(key)
                    + " bytes, longer than the " + S3Location.MAX_KEY_BYTES + " bytes S3 allows");
        }
        return near.withKey(key);
    }

    private static int utf8Length(String key) {
        return key.getBytes(StandardCharsets.UTF_8).length;
    }

    private static void remove(ObjectClient client, S3Location probe) {
        try {
            client.delete(probe);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Could not delete the If-None-Match probe object {}; it may be deleted by hand", probe, e);
        }
    }
}
