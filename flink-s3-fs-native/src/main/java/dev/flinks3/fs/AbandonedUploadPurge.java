package dev.flinks3.fs;

import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.PendingUpload;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The purge of {@code s3.multipart.purge.age}: aborts the multipart uploads under Flink's checkpoint and
 * savepoint directories that were initiated longer ago than the age. A TaskManager killed while a checkpoint
 * stream uploads (by {@code kill -9}, an OOM killer, a lost node) leaves that stream's upload open; nothing in
 * Flink completes or aborts it, and S3 keeps (and bills) its parts until a lifecycle rule or a purge aborts it
 * (S3 user guide, "Aborting a multipart upload"). Uploads outside those directories, such as the persisted
 * uploads of a FileSink's part files, are never touched: they may stay open for as long as a job is stopped.
 *
 * <p>It runs when the filesystem of a directory's bucket is created, once per factory and bucket: one
 * ListMultipartUploads per directory (all pages) and one AbortMultipartUpload per upload older than the age.
 * It is housekeeping, so a failure (a missing {@code s3:ListBucketMultipartUploads} or {@code
 * s3:AbortMultipartUpload} permission, a server without the listing) is logged as a warning naming the key, and
 * the filesystem is created all the same. Immutable and thread-safe.
 */
final class AbandonedUploadPurge {

    private static final Logger LOG = LoggerFactory.getLogger(AbandonedUploadPurge.class);

    /** Flink's keys of the checkpoint and savepoint directories: Flink 2.x's, then the older spellings. */
    static final List<String> DIRECTORY_KEYS = List.of(
            "execution.checkpointing.dir",
            "state.checkpoints.dir",
            "execution.checkpointing.savepoint-dir",
            "state.savepoints.dir");

    private final List<URI> directories;
    private final String entropyKey;

    private AbandonedUploadPurge(List<URI> directories, String entropyKey) {
        this.directories = directories;
        this.entropyKey = entropyKey;
    }

    /**
     * The purge for the directories named in Flink's configuration (on {@code s3://}, {@code s3a://} or {@code s3p://}).
     *
     * @param values the Flink configuration as key-value pairs
     * @param entropyKey {@code s3.entropy.key}, or {@code null}
     */
    static AbandonedUploadPurge of(Map<String, String> values, String entropyKey) {
        Set<URI> found = new LinkedHashSet<>();
        for (String key : DIRECTORY_KEYS) {
            String value = values.get(key);
            if (value == null || value.isBlank()) {
                continue;
            }
            try {
                URI uri = URI.create(value.trim());
                String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
                if ((scheme.equals("s3") || scheme.equals("s3a") || scheme.equals("s3p"))
                        && uri.getAuthority() != null) {
                    found.add(uri);
                }
            } catch (IllegalArgumentException e) {
                // Not a URI this plugin serves; Flink reports it where it uses the directory.
            }
        }
        return new AbandonedUploadPurge(List.copyOf(found), entropyKey);
    }

    /**
     * The key prefixes of {@code bucket} to purge, each ending in {@code /}; empty if no directory is in that
     * bucket. A directory at the bucket's root, or with the entropy key in its first folder, gives none (with a
     * warning from {@link #run}): no fixed prefix would then stay clear of uploads outside it.
     */
    List<String> prefixes(String bucket) {
        List<String> prefixes = new ArrayList<>();
        for (URI directory : directories) {
            String prefix = prefixOf(directory);
            if (directory.getAuthority().equals(bucket) && prefix != null) {
                prefixes.add(prefix);
            }
        }
        return prefixes;
    }

    /**
     * Aborts, in {@code bucket}, the uploads under {@link #prefixes} initiated more than {@code age} before {@code
     * nowMillis}. Uploads whose initiation time the server does not say are left alone.
     *
     * @return the uploads aborted
     */
    int run(ObjectClient client, String scheme, String bucket, Duration age, long nowMillis) {
        if (age.isZero()) {
            return 0;
        }
        for (URI directory : directories) {
            if (directory.getAuthority().equals(bucket) && prefixOf(directory) == null) {
                LOG.warn(
                        "'{}' does not purge {}: it lies at the bucket's root or has '{}' ({}) in its first folder,"
                                + " so no prefix would keep clear of uploads outside it",
                        key(),
                        directory,
                        S3ConfigOptions.ENTROPY_KEY.key(),
                        entropyKey);
            }
        }
        long cutoff = nowMillis - age.toMillis();
        int aborted = 0;
        for (String prefix : prefixes(bucket)) {
            List<PendingUpload> uploads;
            try {
                uploads = client.listMultipartUploads(bucket, prefix);
            } catch (IOException | RuntimeException e) {
                LOG.warn(
                        "'{}' could not list the multipart uploads under {}://{}/{}", key(), scheme, bucket, prefix, e);
                continue;
            }
            for (PendingUpload upload : uploads) {
                if (upload.initiatedMillis() <= 0 || upload.initiatedMillis() > cutoff) {
                    continue;
                }
                S3Location location = S3Location.of(scheme, bucket, upload.key());
                try {
                    Futures.await(
                            client.abortMultipartUpload(location, upload.uploadId()), "AbortMultipartUpload", location);
                    aborted++;
                } catch (IOException | RuntimeException e) {
                    // 404: gone already (another TaskManager's purge, or its stream finished).
                    boolean gone = e instanceof java.io.FileNotFoundException
                            || (e instanceof S3RequestException && ((S3RequestException) e).statusCode() == 404);
                    if (!gone) {
                        LOG.warn("'{}' could not abort the upload {} of {}", key(), upload.uploadId(), location, e);
                    }
                }
            }
        }
        if (aborted > 0) {
            LOG.info(
                    "Aborted {} multipart upload(s) older than {} under the checkpoint and savepoint directories in"
                            + " {}://{}/ ('{}')",
                    aborted,
                    age,
                    scheme,
                    bucket,
                    key());
        }
        return aborted;
    }

    /**
     * The directory's key prefix ending in {@code /}; with the entropy key in its path, the folders before the
     * entropy key (as a lifecycle rule's literal prefix would be). {@code null} if that leaves nothing: a directory
     * at a bucket's root, or with the entropy key in its first folder.
     */
    private String prefixOf(URI directory) {
        String path = directory.getPath() == null ? "" : directory.getPath();
        while (path.startsWith("/")) {
            path = path.substring(1);
        }
        int entropy = entropyKey == null ? -1 : path.indexOf(entropyKey);
        if (entropy >= 0) {
            path = path.substring(0, path.lastIndexOf('/', entropy) + 1);
        }
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return path.isEmpty() ? null : path + "/";
    }

    private static String key() {
        return S3ConfigOptions.MULTIPART_PURGE_AGE.key();
    }

    @Override
    public String toString() {
        return "AbandonedUploadPurge{directories=" + directories + "}";
    }
}
