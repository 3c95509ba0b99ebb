package dev.flinks3.multipart;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.ObjectMetadata;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.WriteCondition;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens around the one request that makes an object visible (PutObject or
 * CompleteMultipartUpload): the no-overwrite precondition and the check after a failed response.
 *
 * <p>No overwrite uses S3 conditional writes ({@code If-None-Match: *}, 412 when the key exists). For
 * servers without them (settings {@code conditionalWritesEnabled = false}) it falls back to a HEAD just
 * before the commit, which leaves a small race window. Servers are reported to accept the header yet not
 * enforce it: Ceph RGW 16.2 on CompleteMultipartUpload, MinIO releases of 2022-2024 (which check and echo
 * flexible checksums as S3 does, so no answer tells them apart), SeaweedFS. So no server is trusted with
 * the condition untested: before the first conditional PutObject a probe next to the target finds out
 * whether PutObject honours it (an object, then a conditional PutObject onto it, removed again), and
 * before the first conditional completion whether CompleteMultipartUpload does (an object, then a one-part
 * upload completed onto it with the condition, both removed again); where a request kind ignores the
 * condition, its commits fall back to the HEAD check, with one warning. Each probe runs once per engine,
 * and only when a write asks for no overwrite. After a failed commit request, a HEAD tells
 * whether the request took effect and only the response was lost (connection drop, or a retry answered
 * NoSuchUpload or 412 because the first attempt had already succeeded): the object then carries
 * exactly the ETag the writer computed. An identical object that was already at the key is
 * indistinguishable from ours and counts as written. Thread-safe.
 */
final class CommitGuard {

    private static final Logger LOG = LoggerFactory.getLogger(CommitGuard.class);
    static final String PROBE_KEY_SUFFIX = ".flinks3-if-none-match-probe-";

    private final ObjectClient client;
    private final boolean conditionalWrites;
    /**
     * Whether CompleteMultipartUpload honours If-None-Match: probed on the first conditional multipart
     * write only, so that a store refusing multipart requests (a KMS key policy without kms:Decrypt)
     * still takes small files.
     */
    private final ConditionProbe completions;
    /** Whether PutObject honours If-None-Match. */
    private final ConditionProbe puts;

    CommitGuard(ObjectClient client, boolean conditionalWrites) {
        this.client = client;
        this.conditionalWrites = conditionalWrites;
        this.completions = new ConditionProbe(
                "CompleteMultipartUpload", "files that span several parts", this::probeConditionalCompletion);
        this.puts = new ConditionProbe("PutObject", "files written in one request", this::probeConditionalPut);
    }

    /**
     * As {@link #preparePut} for a CompleteMultipartUpload: where conditional writes are switched off or
     * the server was found to ignore {@code If-None-Match} on completions, the HEAD check replaces it.
     *
     * @throws FileAlreadyExistsException if no overwrite is asked and an object exists at {@code target}
     * @throws IOException if the HEAD check fails
     */
    WriteCondition prepareCompletion(S3Location target, WriteCondition requested) throws IOException {
        if (requested != WriteCondition.IF_NONE_MATCH) {
            return requested;
        }
        if (!conditionalWrites || !completions.honoured(target)) {
            return headCheck(target);
        }
        return requested;
    }

    /**
     * True if a CompleteMultipartUpload to a key near {@code near} can carry no-overwrite as {@code
     * If-None-Match: *} that the server honours (probing the server once if needed, as {@link
     * #prepareCompletion} does); false with conditional writes switched off or where the probe failed.
     */
    boolean completionCarriesCondition(S3Location near) {
        return conditionalWrites && completions.honoured(near);
    }

    /** Completes a one-part upload with If-None-Match onto an object of its own; true if refused. */
    private boolean probeConditionalCompletion(S3Location near) throws IOException {
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
            remove(probe);
        }
    }

    /**
     * The condition to send with the PutObject of a whole object: where conditional writes are switched
     * off or the server was found to ignore {@code If-None-Match} on PutObject (probing it once if
     * needed), the HEAD check replaces it.
     *
     * @throws FileAlreadyExistsException if no overwrite is asked, the HEAD check replaces the condition
     *     and an object exists at {@code target}
     * @throws IOException if the HEAD check fails
     */
    WriteCondition preparePut(S3Location target, WriteCondition requested) throws IOException {
        if (requested != WriteCondition.IF_NONE_MATCH) {
            return requested;
        }
        if (!conditionalWrites || !puts.honoured(target)) {
            return headCheck(target);
        }
        return requested;
    }

    /** Puts an object of its own, then a conditional PutObject onto it; true if refused. */
    private boolean probeConditionalPut(S3Location near) throws IOException {
        S3Location probe = probeNear(near);
        try {
            Futures.await(client.put(probe, ByteBuffer.allocate(1), WriteCondition.NONE), "PutObject", probe);
            Futures.await(client.put(probe, ByteBuffer.allocate(2), WriteCondition.IF_NONE_MATCH), "PutObject", probe);
            return false;
        } catch (FileAlreadyExistsException refused) {
            return true;
        } finally {
            remove(probe);
        }
    }

    /**
     * A fresh probe key beside {@code near}: its key with the probe's suffix, or, where that would pass S3's key
     * limit, a hidden name of the probe's own in {@code near}'s directory.
     *
     * @throws IOException naming the length and the limit if not even that fits
     */
    private static S3Location probeNear(S3Location near) throws IOException {
        String unique = PROBE_KEY_SUFFIX + UUID.randomUUID();
        String key = near.key() + unique;
        if (utf8Length(key) > S3Location.MAX_KEY_BYTES) {
            key = near.key().substring(0, near.key().lastIndexOf('/') + 1) + unique;
        }
        if (utf8Length(key) > S3Location.MAX_KEY_BYTES) {
            throw new IOException("No If-None-Match probe fits beside " + near + ": its key would be " + utf8Length(key)
                    + " bytes, longer than the " + S3Location.MAX_KEY_BYTES + " bytes S3 allows");
        }
        return near.withKey(key);
    }

    private static int utf8Length(String key) {
        return key.getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * Deletes a probe's object, also after a failed probe (whose PutObject may have taken effect with its
     * answer lost); a delete that fails leaves it, with a warning naming it.
     */
    private void remove(S3Location probe) {
        try {
            client.delete(probe);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Could not delete the If-None-Match probe object {}; it may be deleted by hand", probe, e);
        }
    }

    /** Sends a probe of one request kind next to {@code near}; true if the server refused the overwrite. */
    @FunctionalInterface
    private interface Probe {
        boolean refusesOverwrite(S3Location near) throws IOException;
    }

    /**
     * Whether one request kind honours {@code If-None-Match: *}, found out by its probe on first use and
     * then kept; one warning where it does not. Thread-safe.
     */
    private static final class ConditionProbe {
        private final String requestKind;
        private final String files;
        private final Probe probe;
        private Boolean honoured;

        ConditionProbe(String requestKind, String files, Probe probe) {
            this.requestKind = requestKind;
            this.files = files;
            this.probe = probe;
        }

        /**
         * True if the request kind honours the condition, probing next to {@code near} on first use. A probe
         * that fails (the server or the network failing its requests) answers false for this write, which
         * then checks with a HEAD, and leaves the question open for the next one.
         */
        synchronized boolean honoured(S3Location near) {
            if (honoured == null) {
                try {
                    honoured = probe.refusesOverwrite(near);
                } catch (IOException | RuntimeException e) {
                    LOG.info(
                            "The probe of If-None-Match: * on {} at {} failed ({}): this write is checked with a HEAD"
                                    + " instead, and the next conditional write probes again.",
                            requestKind,
                            near,
                            e.toString());
                    return false;
                }
                if (!honoured) {
                    LOG.warn(
                            "This S3 server ignores If-None-Match: * on {} (a probe at {} was overwritten): {} written"
                                    + " with WriteMode.NO_OVERWRITE are checked with a HEAD just before the commit"
                                    + " instead, which a concurrent writer can race.",
                            requestKind,
                            near,
                            files);
                }
            }
            return honoured;
        }
    }

    private WriteCondition headCheck(S3Location target) throws IOException {
        try {
            client.head(target);
        } catch (FileNotFoundException absent) {
            return WriteCondition.NONE;
        }
        throw new FileAlreadyExistsException(target.toString(), null, "an object exists at the key");
    }

    /**
     * After a commit request to {@code target} failed with {@code failure}: true if the object there has
     * exactly {@code expectedETag}, i.e. our request took effect. Errors of the check itself are added to
     * {@code failure} as suppressed. Does not retry.
     *
     * @param expectedETag the ETag our request would give the object; {@code null} if unknown (then false)
     */
    boolean tookEffect(S3Location target, String expectedETag, Throwable failure) {
        if (expectedETag == null) {
            return false;
        }
        try {
            ObjectMetadata metadata = client.head(target);
            return ETags.same(metadata.eTag(), expectedETag);
        } catch (FileNotFoundException absent) {
            return false;
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
            return false;
        }
    }
}
