package dev.flinks3.transfer;

/**
 * The port through which a filesystem opens the streams of {@code create()}: the upload engine of the
 * SDK's client, or the Transfer Manager's uploads with {@code s3.client: crt}. The engine is chosen once,
 * where the clients are built; the filesystem sees only this port.
 */
public interface UploadStreams {

    /**
     * Opens a stream that writes {@code target} when closed.
     *
     * @param condition {@link WriteCondition#IF_NONE_MATCH} to fail the commit with {@link
     *     java.nio.file.FileAlreadyExistsException} if an object exists (Flink's {@code NO_OVERWRITE})
     */
    UploadStream openStream(S3Location target, WriteCondition condition);
}
