package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.DefaultMemoryLimit;
import dev.flinks3.transfer.GetRequest;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.Secret;
import dev.flinks3.transfer.bulk.BulkDownloader;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.regions.Region;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class S3ClientOwnerTest {

    @ParameterizedTest
    @EnumSource(ClientSettings.HttpClientType.class)
    void buildsAndClosesWithEitherHttpClient(ClientSettings.HttpClientType httpClient) throws Exception {
        S3Settings settings = offline().client(c -> c.httpClient(httpClient)).build();
        S3ClientOwner owner = new S3ClientOwner(settings);
        try {
            assertThat(owner.objectClient()).isInstanceOf(SdkObjectClient.class);
            assertThat(owner.bulkDownloader()).isNotNull();
            assertThat(owner.toString()).contains(httpClient.name()).doesNotContain("secret-that-must-not-show");
        } finally {
            owner.close();
        }
        owner.close();
    }

    @Test
    void ownsTheReadAheadBudgetOfOneGibibyteOrAQuarterOfTheHeap() throws Exception {
        S3Settings settings = S3Settings.builder()
                .client(c -> c.endpoint(URI.create("http://127.0.0.1:1")))
                .build();
        try (S3ClientOwner owner = new S3ClientOwner(settings)) {
            assertThat(owner.readAheadBudget().limitBytes())
                    .isEqualTo(DefaultMemoryLimit.of(Runtime.getRuntime().maxMemory()));
        }
        assertThat(DefaultMemoryLimit.of(8L << 30)).isEqualTo(1L << 30);
        assertThat(DefaultMemoryLimit.of(1L << 30)).isEqualTo(256L << 20);
    }

    @ParameterizedTest
    @EnumSource(ClientSettings.ClientType.class)
    void requestsAfterCloseFailSayingTheFileSystemIsClosed(ClientSettings.ClientType client, @TempDir Path dir)
            throws Exception {
        S3Settings settings = offline().client(c -> c.client(client)).build();
        S3ClientOwner owner = new S3ClientOwner(settings);
        owner.close();
        S3Location location = S3Location.of("s3", "bucket", "closed/key");

        assertThatThrownBy(() -> owner.objectClient().head(location))
                .isExactlyInstanceOf(IOException.class)
                .hasMessageContaining("HeadObject of " + location)
                .hasMessageContaining("the S3 filesystem is closed");
        assertThatThrownBy(() -> owner.objectClient()
                        .get(GetRequest.into(location, 0, ByteBuffer.allocate(10)))
                        .join())
                .hasCauseExactlyInstanceOf(IOException.class)
                .hasMessageContaining("GetObject of " + location)
                .hasMessageContaining("the S3 filesystem is closed");
        assertThatThrownBy(() -> owner.bulkDownloader()
                        .download(List.of(BulkDownloader.FileCopy.of(location, dir.resolve("restored")))))
                .isExactlyInstanceOf(IOException.class)
                .hasMessageContaining("GetObject of " + location)
                .hasMessageContaining("the S3 filesystem is closed");
        assertThat(dir.resolve("restored")).doesNotExist();
    }

    @Test
    void customEndpointWithoutRegionSignsForUsEast1() {
        S3Settings settings = S3Settings.builder()
                .client(c -> c.endpoint(URI.create("http://localhost:9000")))
                .build();
        assertThat(S3ClientOwner.resolveRegion(settings)).isEqualTo(Region.US_EAST_1);
    }

    @Test
    void configuredRegionWins() {
        assertThat(S3ClientOwner.resolveRegion(S3Settings.builder()
                        .client(c -> c.region("eu-central-1"))
                        .build()))
                .isEqualTo(Region.EU_CENTRAL_1);
    }

    @Test
    void badSettingsFailAtConstructionAndLeaveNothingOpen() {
        S3Settings settings = S3Settings.builder()
                .client(c -> c.endpoint(URI.create("http://127.0.0.1:1"))
                        .credentials(k -> k.credentialsProviderClasses(List.of("com.example.NoSuchProvider"))))
                .build();
        assertThatThrownBy(() -> new S3ClientOwner(settings))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("com.example.NoSuchProvider");
    }

    /** Settings of a client that sends nothing: no server listens on the endpoint. */
    private static S3Settings.Builder offline() {
        return S3Settings.builder()
                .client(c -> c.endpoint(URI.create("http://127.0.0.1:1"))
                        .pathStyleAccess(true)
                        .credentials(k ->
                                k.accessKey("AKIAEXAMPLE").secretKey(Secret.ofNullable("secret-that-must-not-show"))));
    }
}
