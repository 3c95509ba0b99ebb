package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.Secret;
import dev.flinks3.transfer.aws.SseDecorator;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.transfer.s3.S3TransferManager;

/**
 * The engine of a configuration is chosen once, by its {@link S3ClientOwner}, from {@code s3.client}: every
 * {@link Engine.Choice} asked of the owner takes the branch of that engine, the CRT one with the owner's Transfer
 * Manager and encryption headers, never a missing one. Building an owner sends no request.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EngineTest {

    /** Records the branch taken and what it was handed. */
    private static final Engine.Choice<String> BRANCH = new Engine.Choice<>() {
        @Override
        public String sdk() {
            return "sdk";
        }

        @Override
        public String crt(S3TransferManager transferManager, SseDecorator sse) {
            return "crt with " + (transferManager == null ? "no" : "a") + " Transfer Manager and "
                    + (sse == null ? "no" : "the") + " encryption headers";
        }
    };

    @Test
    void theSdkClientTakesTheSdkBranch() throws Exception {
        try (S3ClientOwner owner = new S3ClientOwner(settings(ClientSettings.ClientType.SDK))) {
            assertThat(owner.engine().choose(BRANCH)).isEqualTo("sdk");
            assertThat(owner.engine()).isSameAs(owner.engine()).hasToString("sdk");
        }
    }

    @Test
    void theCrtClientTakesTheCrtBranchWithItsTransferManager() throws Exception {
        try (S3ClientOwner owner = new S3ClientOwner(settings(ClientSettings.ClientType.CRT))) {
            assertThat(owner.engine().choose(BRANCH))
                    .isEqualTo("crt with a Transfer Manager and the encryption headers");
            assertThat(owner.engine()).isSameAs(owner.engine()).hasToString("crt");
        }
    }

    private static S3Settings settings(ClientSettings.ClientType client) {
        return S3Settings.builder()
                .client(c -> c.endpoint(URI.create("http://127.0.0.1:9"))
                        .region("us-east-1")
                        .pathStyleAccess(true)
                        .client(client)
                        .credentials(k -> k.accessKey("engine-test").secretKey(Secret.ofNullable("engine-test"))))
                .build();
    }
}
