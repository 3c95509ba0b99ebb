package dev.flinks3.transfer.crt;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.s3.DelegatingS3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.S3Request;

/**
 * One configuration's view on the shared CRT-based S3 client: every request goes with the configuration's
 * credentials ({@code overrideConfiguration().credentialsProvider}, which the CRT-based client signs with
 * in place of its own), the request's other overrides kept. {@link #close()} does nothing: the client is
 * the process's ({@link CrtClients}).
 */
final class CredentialedS3Client extends DelegatingS3AsyncClient {

    private final AwsCredentialsProvider credentials;

    CredentialedS3Client(S3AsyncClient shared, AwsCredentialsProvider credentials) {
        super(shared);
        this.credentials = credentials;
    }

    @Override
    protected <T extends S3Request, R> CompletableFuture<R> invokeOperation(
            T request, Function<T, CompletableFuture<R>> operation) {
        return operation.apply(signedWith(request, credentials));
    }

    /** {@code request} with {@code credentials} to sign it, its other overrides kept. */
    static <T extends S3Request> T signedWith(T request, AwsCredentialsProvider credentials) {
        AwsRequestOverrideConfiguration override = request.overrideConfiguration()
                .map(AwsRequestOverrideConfiguration::toBuilder)
                .orElseGet(AwsRequestOverrideConfiguration::builder)
                .credentialsProvider(credentials)
                .build();
        @SuppressWarnings("unchecked") // toBuilder().build() gives a request of the same class
        T signed = (T) request.toBuilder().overrideConfiguration(override).build();
        return signed;
    }

    @Override
    public void close() {
        // the shared client is closed by its last lease
    }
}
