package dev.flinks3.multipart;

import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.ObjectMetadata;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.WriteCondition;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
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
 * condition, its commits fall back to the HEAD check, with one warning ({@link ConditionProbes}). Each probe
 * runs once per engine,
 * and only when a write asks for no overwrite. After a failed commit request, a HEAD tells
 * whether the request took effect and only the response was lost (connection drop, or a retry answered
 * NoSuchUpload or 412 because the first attempt had already succeeded): the object then carries
 * exactly the ETag the writer computed. An identical object that was already at the key is
 * indistinguishable from ours and counts as written. Thread-safe.
 */
final class CommitGuard {

    private static final Logger LOG = LoggerFactory.getLogger(CommitGuard.class);
    static final String PROBE_KEY_SUFFIX = ConditionProbes.PROBE_KEY_SUFFIX;

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
                "CompleteMultipartUpload",
                "files that span several parts",
                near -> ConditionProbes.completionRefusesOverwrite(client, near));
        this.puts = new ConditionProbe(
                "PutObject", "files written in one request", near -> ConditionProbes.putRefusesOverwrite(client, near));
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
