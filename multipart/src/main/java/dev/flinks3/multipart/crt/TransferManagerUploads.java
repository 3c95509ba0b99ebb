package dev.flinks3.multipart.crt;

import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.PendingUpload;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.UploadStreams;
import dev.flinks3.transfer.WriteCondition;
import dev.flinks3.transfer.XmlText;
import dev.flinks3.transfer.aws.S3Errors;
import dev.flinks3.transfer.aws.SseDecorator;
import dev.flinks3.transfer.options.S3Options;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.transfer.s3.S3TransferManager;

/**
 * Output streams of {@code s3.client: crt}: a file larger than one part is uploaded by the S3 Transfer
 * Manager on the CRT-based S3 client as a body of unknown length ({@link StreamedUpload}); a smaller one
 * is one PutObject through our {@link UploadEngine}. The choice is made per stream when its first part
 * fills, and our engine takes the stream instead where the Transfer Manager cannot keep a promise of the
 * engine (one warning per reason):
 *
 * <ul>
 *   <li><b>Checksums</b>: the client computes each part's CRC32C and sends it as an {@code aws-chunked}
 *       trailer, which the server checks. It cannot send {@code Content-MD5} per part, so until the
 *       server has shown that it checks {@code x-amz-checksum-crc32c} (by echoing it on an upload of our
 *       engine), and for good on a server that does not, our engine uploads the stream. An echo of a
 *       header checksum does not show that the server takes a trailer (Ceph RGW 16.2 checks the one and
 *       refuses the other): the first stream that outgrows one part has a {@link TrailerProbe} send a
 *       small body with a trailer through the Transfer Manager, and where the server refuses it our
 *       engine uploads every stream.
 *   <li><b>No overwrite</b>: the client sends {@code If-None-Match: *} with CompleteMultipartUpload (not
 *       with CreateMultipartUpload or the parts), so where the server is not known to honour it there
 *       (conditional writes switched off, or a probe found it ignored) our engine, with its HEAD check,
 *       uploads the stream.
 * </ul>
 *
 * <p>SSE-S3, SSE-KMS and SSE-C go with the request as headers; the client copies them to the requests
 * that need them. Thread-safe; holds no resources of its own.
 */
public final class TransferManagerUploads implements UploadStreams {

    private static final Logger LOG = LoggerFactory.getLogger(TransferManagerUploads.class);
    /**
     * The S3 defaults, without {@code Expect: 100-continue}: aws-c-s3 copies the PutObject's headers to
     * its CreateMultipartUpload, and a server that then closes the connection after answering (Jetty, under
     * S3Proxy, does so for an expected body it never read) sends an answer without length that aws-c-http
     * reads as empty ("Upload Id not found in create-multipart-upload response").
     */
    private static final S3Configuration NO_EXPECT =
            S3Configuration.builder().expectContinueEnabled(false).build();

    private final S3TransferManager transferManager;
    private final UploadEngine engine;
    private final ObjectClient client;
    private final S3Settings settings;
    private final SseDecorator sse;
    private final AtomicBoolean checksumWarning = new AtomicBoolean();
    private final AtomicBoolean noOverwriteWarning = new AtomicBoolean();
    private final TrailerProbe trailers;
    /** Set once the client could not use the server's answers: every later stream goes to our engine. */
    private volatile boolean unusable;

    /**
     * @param transferManager the Transfer Manager on the CRT-based S3 client; not owned
     * @param engine our engine on the same client, for files of one part and where the Transfer Manager
     *     cannot be used; its budget also bounds the Transfer Manager's streams and its metrics count them
     * @param client the seam of the same client, which knows what the server checks
     * @param settings part size, checksums, encryption
     * @param sse the encryption headers of the client's configuration, as its owner built them
     */
    public TransferManagerUploads(
            S3TransferManager transferManager,
            UploadEngine engine,
            ObjectClient client,
            S3Settings settings,
            SseDecorator sse) {
        this.transferManager = Objects.requireNonNull(transferManager, "transferManager");
        this.engine = Objects.requireNonNull(engine, "engine");
        this.client = Objects.requireNonNull(client, "client");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.sse = Objects.requireNonNull(sse, "sse");
        this.trailers = new TrailerProbe(transferManager, client, this::putRequest);
    }

    /**
     * Opens a stream that writes {@code target} when closed. Sends nothing before the first part fills.
     *
     * @param condition {@link WriteCondition#IF_NONE_MATCH} to fail the commit with {@link
     *     java.nio.file.FileAlreadyExistsException} if an object exists (NO_OVERWRITE)
     */
    @Override
    public TransferManagerUploadStream openStream(S3Location target, WriteCondition condition) {
        return openStream(target, condition, CompletedPart.MAX_PART_NUMBER * (long) partBytes());
    }

    /** {@link #openStream(S3Location, WriteCondition)} whose Transfer Manager upload takes at most {@code capBytes}. */
    TransferManagerUploadStream openStream(S3Location target, WriteCondition condition, long capBytes) {
        return new TransferManagerUploadStream(
                this,
                Objects.requireNonNull(target, "target"),
                Objects.requireNonNull(condition, "condition"),
                capBytes);
    }

    UploadEngine engine() {
        return engine;
    }

    int partBytes() {
        return (int) Math.min(Integer.MAX_VALUE - 8, settings.upload().partSizeBytes());
    }

    /**
     * True if the Transfer Manager may upload a stream to {@code target} that is larger than one part. Not for a key
     * XML 1.0 cannot carry: the engine's CreateMultipartUpload refuses it with an error that names the character,
     * where the Transfer Manager's would leave uploads behind and fail on an unreadable answer.
     */
    boolean takes(S3Location target, WriteCondition condition) throws IOException {
        if (unusable || !XmlText.canCarry(target.key())) {
            return false;
        }
        // With checksums off too: the Transfer Manager's parts could carry no Content-MD5, the engine's do.
        if (!client.checksFlexibleChecksums()) {
            if (settings.client().checksumsEnabled()
                    && engine.metrics().bytesUploaded() > 0
                    && !checksumWarning.getAndSet(true)) {
                LOG.warn("This S3 server has not shown that it checks x-amz-checksum-crc32c, and the Transfer"
                        + " Manager on the CRT-based S3 client (" + S3Options.CLIENT.key()
                        + ": crt) cannot send Content-MD5 with its"
                        + " parts: files written through FileSystem.create() are uploaded by the plugin's"
                        + " multipart engine instead, with Content-MD5.");
            }
            return false;
        }
        if (!trailers.accepted(target)) {
            return false;
        }
        if (condition == WriteCondition.IF_NONE_MATCH && !engine.completionHonoursNoOverwrite(target)) {
            if (!noOverwriteWarning.getAndSet(true)) {
                LOG.warn("This S3 server is not known to honour If-None-Match: * on CompleteMultipartUpload"
                        + " (" + S3Options.CONDITIONAL_WRITES_ENABLED.key()
                        + ": false, or a probe found it ignored): files created"
                        + " with WriteMode.NO_OVERWRITE are uploaded by the plugin's multipart engine, which"
                        + " checks the key with a HEAD, instead of the Transfer Manager (" + S3Options.CLIENT.key()
                        + ": crt).");
            }
            return false;
        }
        return true;
    }

    /**
     * After the Transfer Manager's upload to {@code target} failed before it took any byte: our engine
     * takes that stream. A failure that is no error answer of the server (the client could not read the
     * server's answer to CreateMultipartUpload: aws-c-s3 rejects some servers' XML) makes every later
     * stream go to our engine too, with one warning, and aborts the multipart upload the server may have
     * created for the key.
     */
    void notTaken(S3Location target, NotTaken refused) {
        if (serverAnswered(refused)) {
            LOG.debug("The Transfer Manager did not start the upload to {}; our engine takes it", target, refused);
            return;
        }
        if (!unusable) {
            unusable = true;
            LOG.warn(
                    "The Transfer Manager on the CRT-based S3 client (" + S3Options.CLIENT.key()
                            + ": crt) cannot upload to this S3"
                            + " server ({}): streams from FileSystem.create() are uploaded by the plugin's multipart"
                            + " engine from now on",
                    refused.getMessage());
        }
        try {
            for (PendingUpload pending : client.listMultipartUploads(target.bucket(), target.key())) {
                if (pending.key().equals(target.key())) {
                    client.abortMultipartUpload(target, pending.uploadId()).join();
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn(
                    "Could not abort the multipart upload the Transfer Manager may have left at {}; a bucket"
                            + " lifecycle rule for incomplete multipart uploads removes it",
                    target,
                    e);
        }
    }

    private static boolean serverAnswered(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof AwsServiceException) {
                return true;
            }
        }
        return false;
    }

    /** The PutObjectRequest of a Transfer Manager upload to {@code target}: encryption, checksum, no 100-continue. */
    private PutObjectRequest.Builder putRequest(S3Location target) {
        PutObjectRequest.Builder request = PutObjectRequest.builder()
                .bucket(target.bucket())
                .key(target.key())
                .overrideConfiguration(o -> o.putExecutionAttribute(SdkExecutionAttribute.SERVICE_CONFIG, NO_EXPECT));
        sse.decorate(request);
        if (settings.client().checksumsEnabled()) {
            request.checksumAlgorithm(ChecksumAlgorithm.CRC32_C);
        }
        return request;
    }

    /** Starts a Transfer Manager upload of unknown length to {@code target}. */
    StreamedUpload start(S3Location target, WriteCondition condition) throws IOException {
        PutObjectRequest.Builder request = putRequest(target);
        String operation = "PutObject (Transfer Manager multipart upload)";
        if (condition == WriteCondition.IF_NONE_MATCH) {
            request.ifNoneMatch("*");
            operation = S3Errors.conditionalWrite(operation);
        }
        return StreamedUpload.start(
                transferManager, request.build(), target, operation, engine.budget(), engine.metrics());
    }
}
