package dev.flinks3.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.it.FlinkS3FileSystems;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.transfer.Secret;
import dev.flinks3.transfer.aws.DelegatedCredentials;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 45, delegation tokens whose renewal stalled: the session credentials Flink's delegation tokens
 * brought have expired and no renewal arrives. The filesystem (configured with no keys, so it signs with
 * the delegated credentials, else the SDK's default chain) then signs with the TaskManager's own chain
 * where that has credentials (here the SDK's {@code aws.accessKeyId} system properties), and never with
 * the expired ones; without an own chain the request fails naming the token renewal and is not sent. The
 * server is an S3Proxy that checks no signature behind the recording proxy, which shows the key each
 * request was signed with.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ExpiredDelegationTokensTest {

    private static final String BUCKET = "expired-tokens";
    private static final String EXPIRED_KEY = "ASIAFLINKS3EXPIRED";
    private static final String OWN_KEY = "AKIAFLINKS3TASKMANAGER";
    /** The system properties of the SDK's default chain this test sets, and those that keep it off this host's. */
    private static final List<String> PROPERTIES = List.of(
            "aws.accessKeyId",
            "aws.secretAccessKey",
            "aws.disableEc2Metadata",
            "aws.sharedCredentialsFile",
            "aws.configFile");

    private final Map<String, String> saved = new HashMap<>();
    private EmbeddedS3Server server;
    private FaultInjectingProxy proxy;

    @BeforeEach
    void start() {
        PROPERTIES.forEach(name -> saved.put(name, System.getProperty(name)));
        // The default chain must find nothing of this machine: no instance metadata, no profile files.
        System.setProperty("aws.disableEc2Metadata", "true");
        System.setProperty("aws.sharedCredentialsFile", "/nonexistent/flinks3/credentials");
        System.setProperty("aws.configFile", "/nonexistent/flinks3/config");
        server = EmbeddedS3Server.builder().authenticate(false).bucket(BUCKET).start();
        proxy = new FaultInjectingProxy(server.endpoint());
        // S3Proxy answers 501 to a session token; the proxy records it, then strips it.
        proxy.stripHeaders("x-amz-security-token");
        DelegatedCredentials.update(
                EXPIRED_KEY,
                Secret.ofNullable("expired-secret"),
                Secret.ofNullable("expired-token"),
                Instant.now().minusSeconds(120));
    }

    @AfterEach
    void stop() throws Exception {
        DelegatedCredentials.clear();
        saved.forEach((name, value) -> {
            if (value == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, value);
            }
        });
        try (EmbeddedS3Server stopping = server) {
            proxy.close();
        }
    }

    @Test
    void expiredDelegatedCredentialsGiveWayToTheTaskManagersOwnChain() throws Exception {
        System.setProperty("aws.accessKeyId", OWN_KEY);
        System.setProperty("aws.secretAccessKey", "taskmanager-secret");
        FileSystemFactory factory = factory();
        try {
            FileSystem fs = factory.create(URI.create("s3://" + BUCKET + "/"));

            write(fs, path("own-chain"));

            assertThat(proxy.recorded()).isNotEmpty().allSatisfy(request -> {
                assertThat(request.header("authorization").orElseThrow()).contains("Credential=" + OWN_KEY + "/");
                assertThat(request.header("x-amz-security-token")).isEmpty();
            });
        } finally {
            FlinkS3FileSystems.closeClients(factory);
        }
    }

    @Test
    void expiredDelegatedCredentialsWithoutAnOwnChainFailNamingTheRenewal() throws Exception {
        System.clearProperty("aws.accessKeyId");
        System.clearProperty("aws.secretAccessKey");
        FileSystemFactory factory = factory();
        try {
            FileSystem fs = factory.create(URI.create("s3://" + BUCKET + "/"));

            Throwable failure = catchThrowable(() -> write(fs, path("no-chain")));

            assertThat(failure)
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("expired at")
                    .hasMessageContaining("no renewal has arrived")
                    .hasMessageContaining("security.delegation.token.provider.s3");
            assertThat(proxy.recorded())
                    .as("requests signed with the expired credentials")
                    .isEmpty();
        } finally {
            FlinkS3FileSystems.closeClients(factory);
        }
    }

    private FileSystemFactory factory() {
        Configuration configuration = new Configuration();
        configuration.setString("s3.endpoint", proxy.endpoint().toString());
        configuration.setString("s3.path-style-access", "true");
        configuration.setString("s3.region", EmbeddedS3Server.REGION);
        configuration.setString("s3.retry.max-num-retries", "1");
        return FlinkS3FileSystems.factory("s3", configuration);
    }

    private static Path path(String name) {
        return new Path("s3://" + BUCKET + "/ExpiredDelegationTokensTest/" + UUID.randomUUID() + "/" + name);
    }

    private static void write(FileSystem fs, Path path) throws IOException {
        try (OutputStream out = fs.create(path, WriteMode.NO_OVERWRITE)) {
            out.write("written".getBytes(StandardCharsets.UTF_8));
        }
    }
}
