package dev.flinks3.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.regions.Region;

class S3ClientOwnerTest {

    @ParameterizedTest
    @EnumSource(ClientSettings.HttpClientType.class)
    void buildsAndClosesWithEitherHttpClient(ClientSettings.HttpClientType httpClient) throws Exception {
        S3Settings settings = S3Settings.builder().client(c -> c.endpoint(URI.create("http://127.0.0.1:1")).pathStyleAccess(true).httpClient(httpClient).credentials(k -> k.accessKey("AKIAEXAMPLE").secretKey(Secret.ofNullable("secret-that-must-not-show"))))
                .build();
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
    void customEndpointWithoutRegionSignsForUsEast1() {
        S3Settings settings = S3Settings.builder().client(c -> c.endpoint(URI.create("http://localhost:9000"))).build();
        assertThat(S3ClientOwner.resolveRegion(settings)).isEqualTo(Region.US_EAST_1);
    }

    @Test
    void configuredRegionWins() {
        assertThat(S3ClientOwner.resolveRegion(S3Settings.builder().client(c -> c.region("eu-central-1")).build()))
                .isEqualTo(Region.EU_CENTRAL_1);
    }

    @Test
    void badSettingsFailAtConstructionAndLeaveNothingOpen() {
        S3Settings settings = S3Settings.builder().client(c -> c.endpoint(URI.create("http://127.0.0.1:1")).credentials(k -> k.credentialsProviderClasses(List.of("com.example.NoSuchProvider"))))
                .build();
        assertThatThrownBy(() -> new S3ClientOwner(settings))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("com.example.NoSuchProvider");
    }
}
