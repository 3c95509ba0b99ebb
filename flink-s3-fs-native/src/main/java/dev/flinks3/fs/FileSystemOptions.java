package dev.flinks3.fs;

import dev.flinks3.transfer.options.Option;
import dev.flinks3.transfer.options.OptionCatalog;
import dev.flinks3.transfer.options.S3Options;
import java.time.Duration;
import java.util.List;

/**
 * The options only the Flink filesystem uses (entropy injection, bulk copies, directory markers, what creating and
 * closing a filesystem does, the metrics log), and those accepted for compatibility with Flink's native plugin that
 * change nothing: each declared once here, as {@link S3Options} declares those of the S3 side (see {@link Option}).
 * {@link S3FileSystemSettings} reads them.
 */
public final class FileSystemOptions {

    private static final OptionCatalog OPTIONS = new OptionCatalog();

    private FileSystemOptions() {}

    /** Every option declared here, in declaration order. */
    public static List<Option<?>> all() {
        return OPTIONS.all();
    }

    // ---- closing ------------------------------------------------------------------------------

    public static final Option<Duration> CLOSE_TIMEOUT = OPTIONS.key("s3.close.timeout")
            .duration(
                    Duration.ofSeconds(60),
                    false,
                    "How long closing the filesystem waits for parts still uploading before it closes the S3 client"
                            + " (uploads still running then fail and their multipart uploads are aborted; one warning"
                            + " says how many bytes).");

    // ---- accepted for compatibility with Flink's native plugin ----------------------------------

    public static final Option<Duration> CLIENT_CLOSE_TIMEOUT = OPTIONS.key("s3.client.close.timeout")
            .duration(
                    Duration.ofSeconds(30),
                    false,
                    "Accepted for compatibility with Flink's native plugin, where it bounds the wait for the S3 client"
                            + " to close; here closing waits 's3.close.timeout' for running uploads and then closes"
                            + " the client at once, so the value has no effect; a value other than the default is"
                            + " named in one warning.");

    public static final Option<Boolean> ASYNC_ENABLED = OPTIONS.key("s3.async.enabled")
            .flag(
                    true,
                    "Accepted for compatibility with Flink's native plugin; every transfer of this plugin is"
                            + " asynchronous, so the value has no effect; 'false' is named in one warning.");

    public static final Option<Integer> READ_BUFFER_SIZE = OPTIONS.key("s3.read.buffer.size")
            .allowedText("65536 .. 4194304 (bytes)")
            .integer(
                    256 * 1024,
                    64 * 1024,
                    4 * 1024 * 1024,
                    "Accepted for compatibility with Flink's native plugin (64 KiB to 4 MiB, in bytes, the native"
                            + " plugin's range, so a value it rejects is rejected here too). Reads here are sized by"
                            + " 's3.read.ahead-size', so the value has no effect; a value other than the default is"
                            + " named in one warning.");

    // ---- directories and bulk copies ------------------------------------------------------------

    public static final Option<Boolean> DIRECTORY_MARKERS_ENABLED = OPTIONS.key("s3.directory-markers.enabled")
            .flag(
                    true,
                    "true: mkdirs writes a directory marker (an empty object 'dir/', as S3A does) so that an empty"
                            + " directory exists and can be listed by every process, at one PutObject and one"
                            + " HeadObject per call. false: mkdirs sends no request; a directory it made exists, lists"
                            + " (empty until something is under it) and can be deleted in this process, and elsewhere"
                            + " a directory exists while an object lies under it, as with Flink's presto and native"
                            + " plugins. With false, ForSt checks the directories it made without a request (with"
                            + " true, each check is a HeadObject and a ListObjectsV2). Markers written by other tools"
                            + " count as directories either way.");

    public static final Option<Boolean> BULK_COPY_ENABLED = OPTIONS.key("s3.bulk-copy.enabled")
            .flag(
                    true,
                    "Copy state files to local disk with parallel bulk downloads (PathsCopyingFileSystem, used by"
                            + " RocksDB restore) instead of one stream per file.");

    // ---- when a bucket's filesystem is created --------------------------------------------------

    public static final Option<Boolean> SSE_KMS_CHECK_ON_CREATE = OPTIONS.key("s3.sse.kms.check-on-create")
            .flag(
                    false,
                    "Check, when the filesystem of a bucket is created, that multipart uploads work there: a"
                            + " CreateMultipartUpload, one UploadPart and an AbortMultipartUpload of a probe key at"
                            + " the bucket's root. SSE-KMS (from 's3.sse.type' or the bucket's default encryption)"
                            + " with a key policy that lacks kms:Decrypt takes small files and refuses every"
                            + " multipart upload; with the check, creating the filesystem fails at once, naming the"
                            + " KMS permissions, instead of the first large checkpoint file.");

    public static final Option<Duration> MULTIPART_PURGE_AGE = OPTIONS.key("s3.multipart.purge.age")
            .duration(
                    Duration.ZERO,
                    true,
                    "Age after which a multipart upload under the checkpoint or savepoint directory"
                            + " ('execution.checkpointing.dir', 'execution.checkpointing.savepoint-dir' or their older"
                            + " 'state.*' spellings) is aborted when the filesystem of that directory's bucket is"
                            + " created: the streams of TaskManagers killed while a checkpoint uploaded, which"
                            + " nothing else ever completes or aborts. 0 (the default) aborts nothing. Uploads outside"
                            + " those directories, such as a FileSink's part files in progress, are never touched."
                            + " With 's3.entropy.key' in the directory, the folders before it are purged; a"
                            + " directory at a bucket's root, or with the entropy key in its first folder, is not"
                            + " purged (a warning says so). Pick an age no checkpoint or savepoint takes to write,"
                            + " e.g. '1 d'.");

    // ---- entropy injection ----------------------------------------------------------------------

    public static final Option<String> ENTROPY_KEY = OPTIONS.key("s3.entropy.key")
            .text(
                    null,
                    "a marker without any of " + S3FileSystemSettings.ENTROPY_KEY_FORBIDDEN,
                    "Marker in checkpoint paths that is replaced by random characters for data files and removed for"
                            + " metadata files (EntropyInjectingFileSystem), spreading keys over S3 partitions. Must"
                            + " not contain characters that are special in URIs or paths.");

    public static final Option<Integer> ENTROPY_LENGTH = OPTIONS.key("s3.entropy.length")
            .integer(4, 1, 64, "Number of random characters that replace 's3.entropy.key'.");

    // ---- metrics ------------------------------------------------------------------------------

    public static final Option<Duration> METRICS_LOG_INTERVAL = OPTIONS.key("s3.metrics.log-interval")
            .duration(
                    Duration.ofMinutes(5),
                    true,
                    "Time between INFO lines that sum up what each filesystem configuration did (requests, retries,"
                            + " throttled attempts, bytes up and down, peak buffered bytes); one more line is logged"
                            + " when it is closed. 0 logs no such lines. The same figures, and more, are platform"
                            + " MBeans in the domain 'dev.flinks3' whatever the value.");
}
