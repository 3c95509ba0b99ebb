package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.ClientSettings.ClientType;
import dev.flinks3.transfer.ClientSettings.HttpClientType;
import java.net.URI;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The line the first filesystem of a process logs: what it names, and that it shows no secret. */
@Timeout(10)
class StartupLineTest {

    private static final PluginBuild BUILD = new PluginBuild("0.1.0", "1a2b3c4d5e");

    @Test
    void namesTheBuildFlinkTheClientsTheEndpointAndTheCredentialsSource() {
        ClientSettings settings = ClientSettings.builder()
                .endpoint(URI.create("http://minio.internal:9000"))
                .build();

        assertThat(StartupLine.text(
                        BUILD, "2.3.0", settings, HttpClientType.CRT, "us-east-1", "static keys (resolved by X)"))
                .isEqualTo("flinks3 0.1.0 (commit 1a2b3c4d5e) on Flink 2.3.0: s3.client sdk on the crt HTTP client,"
                        + " endpoint http://minio.internal:9000, region us-east-1, credentials static keys (resolved"
                        + " by X)");
    }

    @Test
    void awsAndTheCrtS3Client() {
        ClientSettings settings =
                ClientSettings.builder().client(ClientType.CRT).build();

        assertThat(StartupLine.text(BUILD, "1.20.5", settings, HttpClientType.CRT, "eu-west-1", "chain"))
                .contains("on Flink 1.20.5: s3.client crt, endpoint AWS's regional endpoint, region eu-west-1");
    }

    @Test
    void theEndpointsUserInformationIsNeverShown() {
        ClientSettings settings = ClientSettings.builder()
                .endpoint(URI.create("https://user:s3cr3t@store.example.com/prefix"))
                .build();

        assertThat(StartupLine.text(BUILD, "2.3.0", settings, HttpClientType.NETTY, "r", "c"))
                .contains("endpoint https://store.example.com/prefix, ")
                .doesNotContain("s3cr3t", "user");
    }

    @Test
    void theBuildIsWhatTheBuildWrote() {
        assertThat(PluginBuild.current().version()).matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
        assertThat(PluginBuild.current().commit()).matches("[0-9a-f]{7,}|" + PluginBuild.UNKNOWN);
        assertThat(PluginBuild.flinkVersion()).isEqualTo("2.3.0");
    }

    @Test
    void aValueTheBuildLeftUnfilledIsUnknown() {
        Properties properties = new Properties();
        properties.setProperty("version", "0.2.0");
        properties.setProperty("commit", "${git.commit.id.abbrev}");

        assertThat(PluginBuild.fromProperties(properties)).hasToString("0.2.0 (commit unknown)");
    }
}
