package dev.flinks3.it.security;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.flinks3.it.FlinkS3FileSystems;
import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.it.faults.ProxiedRequest;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.transfer.aws.DelegatedCredentials;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 17, Flink's delegation tokens for S3 on a MiniCluster: with {@code
 * security.delegation.token.provider.s3.enabled}, the JobManager's provider exchanges its long-term keys
 * (set only under {@code security.delegation.token.provider.s3.*}) for session credentials at a local
 * STS stand-in (WireMock answering {@code GetSessionToken}, found through the SDK's {@code
 * aws.endpointUrlSts}); the cluster's receivers hand them to the plugin, whose filesystem, configured with
 * no keys at all, signs its S3 requests with them. The first credentials expire in seconds, so Flink
 * keeps obtaining new ones and sending them; once STS hands out others, the next requests carry those. The receivers of the
 * MiniCluster's TaskManager and this test's filesystem share one JVM, as a TaskManager's receiver and
 * its filesystems do. The S3 side is the recording proxy in front of an S3Proxy that checks no signature
 * (S3Proxy answers 501 to a session token, so the proxy strips it after recording it).
 */
@Timeout(180)
class DelegationTokenTest {

    private static final String LONG_TERM_KEY = "AKIAFLINKS3JOBMANAGER";
    private static final String FIRST_KEY = "ASIAFLINKS3FIRST";
    private static final String RENEWED_KEY = "ASIAFLINKS3RENEWED";

    private LocalSts localSts;
    private WireMockServer sts;

    @BeforeEach
    void startSts() {
        localSts = new LocalSts();
        sts = localSts.server();
        // Until the test has seen them used, every answer is the first session, expiring in seconds, so
        // Flink keeps renewing it; then the stand-in switches to the renewed session.
        stubSession(FIRST_KEY, "4 seconds");
    }

    @AfterEach
    void stopSts() {
        localSts.close();
        DelegatedCredentials.clear();
    }

    @Test
    void taskManagersSignWithTheJobManagersSessionCredentialsAndTheirRenewals() throws Exception {
        Configuration cluster = new Configuration();
        cluster.setString("security.delegation.token.provider.s3.enabled", "true");
        cluster.setString("security.delegation.token.provider.s3.access-key", LONG_TERM_KEY);
        cluster.setString("security.delegation.token.provider.s3.secret-key", "jobmanager-secret");
        cluster.setString("security.delegation.token.provider.s3.region", EmbeddedS3Server.REGION);
        cluster.setString("security.delegation.tokens.renewal.time-ratio", "0.5");

        try (UnsignedServer unsigned = new UnsignedServer();
                MiniCluster miniCluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                        .setConfiguration(cluster)
                        .setNumTaskManagers(1)
                        .setNumSlotsPerTaskManager(1)
                        .build())) {
            unsigned.proxy.stripHeaders("x-amz-security-token");
            miniCluster.start();
            sts.verify(postRequestedFor(urlEqualTo("/"))
                    .withRequestBody(containing("Action=GetSessionToken"))
                    .withHeader("Authorization", containing("Credential=" + LONG_TERM_KEY + "/")));

            Configuration fsConfig = new Configuration();
            fsConfig.setString("s3.endpoint", unsigned.proxy.endpoint().toString());
            fsConfig.setString("s3.path-style-access", "true");
            fsConfig.setString("s3.region", EmbeddedS3Server.REGION);
            FileSystemFactory factory = FlinkS3FileSystems.factory("s3", fsConfig);
            try {
                FileSystem fs = factory.create(URI.create("s3://" + SharedS3ProxyTarget.bucket() + "/"));
                String dir = "s3://" + SharedS3ProxyTarget.bucket() + "/DelegationTokenTest/" + UUID.randomUUID();

                // STS's session credentials sign the requests, never the JobManager's long-term keys.
                List<ProxiedRequest> first = write(unsigned, fs, new Path(dir, "first"));
                assertThat(first).isNotEmpty().allSatisfy(request -> {
                    assertThat(request.header("authorization").orElseThrow()).contains("Credential=" + FIRST_KEY + "/");
                    assertThat(request.header("x-amz-security-token")).contains("session-token-" + FIRST_KEY);
                });

                // Flink renews the expiring credentials and sends them; the filesystem takes them.
                sts.resetMappings();
                stubSession(RENEWED_KEY, "1 hours");
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(200))
                        .untilAsserted(() -> {
                            List<ProxiedRequest> later =
                                    write(unsigned, fs, new Path(dir, "later-" + UUID.randomUUID()));
                            assertThat(later).isNotEmpty().allSatisfy(request -> {
                                assertThat(request.header("authorization").orElseThrow())
                                        .contains("Credential=" + RENEWED_KEY + "/");
                                assertThat(request.header("x-amz-security-token"))
                                        .contains("session-token-" + RENEWED_KEY);
                            });
                        });
            } finally {
                factory.configure(new Configuration());
            }
        }
    }

    /** Writes one small file; returns the S3 requests that the write sent. */
    private static List<ProxiedRequest> write(UnsignedServer unsigned, FileSystem fs, Path path) throws Exception {
        unsigned.proxy.clearRecorded();
        FileSystemWorkout.write(fs, path, FileSystemWorkout.bytes(1000, 3));
        return unsigned.proxy.recorded();
    }

    /** STS answers GetSessionToken with {@code key}, expiring {@code validFor} after each answer. */
    private void stubSession(String key, String validFor) {
        sts.stubFor(post(urlEqualTo("/"))
                .withRequestBody(containing("Action=GetSessionToken"))
                .willReturn(aResponse()
                        .withStatus(200)
                        .withHeader("Content-Type", "text/xml")
                        .withTransformers("response-template")
                        .withBody("<GetSessionTokenResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
                                + "<GetSessionTokenResult><Credentials>"
                                + "<AccessKeyId>" + key + "</AccessKeyId>"
                                + "<SecretAccessKey>secret-" + key + "</SecretAccessKey>"
                                + "<SessionToken>session-token-" + key + "</SessionToken>"
                                + "<Expiration>{{now offset='" + validFor + "'}}</Expiration>"
                                + "</Credentials></GetSessionTokenResult>"
                                + "<ResponseMetadata><RequestId>flinks3-test</RequestId></ResponseMetadata>"
                                + "</GetSessionTokenResponse>")));
    }
}
