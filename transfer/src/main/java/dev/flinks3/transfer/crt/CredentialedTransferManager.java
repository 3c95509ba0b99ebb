package dev.flinks3.transfer.crt;

import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.transfer.s3.S3TransferManager;
import software.amazon.awssdk.transfer.s3.model.DownloadFileRequest;
import software.amazon.awssdk.transfer.s3.model.FileDownload;
import software.amazon.awssdk.transfer.s3.model.Upload;
import software.amazon.awssdk.transfer.s3.model.UploadRequest;

/**
 * One configuration's view on the shared Transfer Manager: the uploads and file downloads the plugin uses,
 * their requests signed with the configuration's credentials ({@link CredentialedS3Client#signedWith}). The
 * other operations of {@link S3TransferManager} are not offered (they throw {@link
 * UnsupportedOperationException}, as the interface's defaults do). {@link #close()} does nothing: the
 * Transfer Manager is the process's ({@link CrtClients}).
 */
final class CredentialedTransferManager implements S3TransferManager {

    private final S3TransferManager shared;
    private final AwsCredentialsProvider credentials;

    CredentialedTransferManager(S3TransferManager shared, AwsCredentialsProvider credentials) {
        this.shared = shared;
        this.credentials = credentials;
    }

    @Override
    public Upload upload(UploadRequest request) {
        return shared.upload(request.toBuilder()
                .putObjectRequest(CredentialedS3Client.signedWith(request.putObjectRequest(), credentials))
                .build());
    }

    @Override
    public FileDownload downloadFile(DownloadFileRequest request) {
        return shared.downloadFile(request.toBuilder()
                .getObjectRequest(CredentialedS3Client.signedWith(request.getObjectRequest(), credentials))
                .build());
    }

    @Override
    public void close() {
        // the shared Transfer Manager is closed by the last lease
    }
}
