package dev.flinks3.multipart.crt;

import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.UploadStreams;
import dev.flinks3.transfer.aws.SseDecorator;
import dev.flinks3.transfer.sdk.Engine;
import dev.flinks3.transfer.sdk.S3ClientOwner;
import software.amazon.awssdk.transfer.s3.S3TransferManager;

/**
 * The streams of {@code FileSystem.create()} on the engine an {@link S3ClientOwner} chose: the plugin's
 * {@link UploadEngine} on the SDK's S3 client, the Transfer Manager's uploads ({@link TransferManagerUploads},
 * with the engine beside them) on the CRT-based one. The choice itself is the owner's ({@link Engine}); this
 * only builds on it.
 */
public final class CreateStreams {

    private CreateStreams() {}

    /**
     * @param owner the clients the streams upload through; not owned
     * @param engine the upload engine on {@code owner}'s object client; not owned
     * @param settings the configuration {@code owner} was built with
     */
    public static UploadStreams of(S3ClientOwner owner, UploadEngine engine, S3Settings settings) {
        return owner.engine().choose(new Engine.Choice<UploadStreams>() {
            @Override
            public UploadStreams sdk() {
                return engine;
            }

            @Override
            public UploadStreams crt(S3TransferManager transferManager, SseDecorator sse) {
                return new TransferManagerUploads(transferManager, engine, owner.objectClient(), settings, sse);
            }
        });
    }
}
