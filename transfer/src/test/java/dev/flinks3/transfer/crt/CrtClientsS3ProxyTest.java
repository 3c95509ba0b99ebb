package dev.flinks3.transfer.crt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.Secret;
import dev.flinks3.transfer.TestSettings;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.WriteCondition;
import dev.flinks3.transfer.aws.CrtNativeLibrary;
import dev.flinks3.transfer.sdk.S3ClientOwner;
import dev.flinks3.transfer.sdk.S3Transport;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With {@code s3.client: crt}, the configurations on one transport (one process) share one native CRT-based
 * S3 client: two bucket configurations that differ in what requests carry (here credentials and encryption)
 * hold one native client with one native memory limit and one connection cap, not two, and each request is
 * signed with its own configuration's credentials. A configuration with another part size, which the native
 * client fixes, gets one of its own ({@link CrtClients#differences} names the key).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CrtClientsS3ProxyTest {

    private static final String BUCKET = "crt-clients";
    private static EmbeddedS3Server server;

    @BeforeAll
    static void start() {
        Assumptions.assumeTrue(CrtNativeLibrary.loadFailure() == null, "the CRT native library loads here");
        server = EmbeddedS3Server.builder().bucket(BUCKET).start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void twoConfigurationsShareOneNativeClientWithOneLimit() throws Exception {
        try (S3Transport transport = new S3Transport()) {
            S3Settings first = crt().build();
            S3Settings second = crt().read(r -> r.bulkCopyConcurrency(3))
                    .client(c -> c.credentials(k -> k.accessKey("not-" + server.accessKey())
                            .secretKey(Secret.ofNullable("wrong-" + server.secretKey()))))
                    .build();
            try (S3ClientOwner a = new S3ClientOwner(first, transport);
                    S3ClientOwner b = new S3ClientOwner(second, transport)) {
                assertThat(transport.crtClients().nativeClients()).isEqualTo(1);
                assertThat(transport.crtClients().nativeMemoryLimitBytes())
                        .as("one native memory limit for the process, not one per configuration")
                        .isEqualTo(CrtS3Client.nativeMemoryLimit(first));
                assertThat(transport.crtClients().maxConnections())
                        .isEqualTo(first.client().maxConnections());

                S3Location location = S3Location.of("s3", BUCKET, "shared/a");
                put(a.objectClient(), location, "signed by the first");
                assertThat(a.objectClient().head(location).length()).isEqualTo(19);
                assertThatThrownBy(() -> put(b.objectClient(), S3Location.of("s3", BUCKET, "shared/b"), "x"))
                        .as("the second configuration's requests go with its own (wrong) credentials")
                        .isInstanceOf(CompletionException.class);
                assertThat(signedBy("shared/a")).startsWith("Credential=" + server.accessKey() + "/");
                assertThat(signedBy("shared/b")).startsWith("Credential=not-" + server.accessKey() + "/");
            }
            assertThat(transport.crtClients().nativeClients())
                    .as("closed with its last lease")
                    .isZero();
        }
    }

    @Test
    void aConfigurationWithOtherClientLevelSettingsGetsANativeClientOfItsOwn() throws Exception {
        try (S3Transport transport = new S3Transport()) {
            S3Settings first = crt().build();
            S3Settings other = crt().upload(u -> u.partSizeBytes(2 * UploadSettings.MIN_PART_SIZE))
                    .build();
            assertThat(CrtClients.differences(first, other))
                    .containsExactly("s3.upload.min.part.size (5242880, not 10485760)");
            try (S3ClientOwner a = new S3ClientOwner(first, transport);
                    S3ClientOwner b = new S3ClientOwner(other, transport)) {
                assertThat(transport.crtClients().nativeClients()).isEqualTo(2);
                put(a.objectClient(), S3Location.of("s3", BUCKET, "other/a"), "one");
                put(b.objectClient(), S3Location.of("s3", BUCKET, "other/b"), "two");
            }
            assertThat(transport.crtClients().nativeClients()).isZero();
        }
    }

    /** The credential scope of the first PutObject to {@code key}, as the server received it. */
    private static String signedBy(String key) {
        String authorization = server.requestLog().entries(RequestKind.PUT_OBJECT).stream()
                .filter(r -> r.key().equals(key))
                .findFirst()
                .flatMap(r -> r.header("authorization"))
                .orElseThrow();
        return authorization.substring(authorization.indexOf("Credential="));
    }

    private static S3Settings.Builder crt() {
        return TestSettings.forServer(server, ClientSettings.HttpClientType.CRT)
                .client(c -> c.client(ClientSettings.ClientType.CRT))
                .upload(u -> u.partSizeBytes(UploadSettings.MIN_PART_SIZE));
    }

    private static void put(ObjectClient client, S3Location location, String text) {
        client.put(location, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), WriteCondition.NONE)
                .join();
    }
}
