package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class EndpointAndContextTest {

    @Test
    void anEndpointWithoutSchemeGetsOneFromTheSslSwitch() {
        assertThat(EndpointUri.parse("minio:9000", true)).isEqualTo(URI.create("https://minio:9000"));
        assertThat(EndpointUri.parse(" minio:9000 ", false)).isEqualTo(URI.create("http://minio:9000"));
        assertThat(EndpointUri.parse("https://s3.eu-west-1.amazonaws.com", false))
                .isEqualTo(URI.create("https://s3.eu-west-1.amazonaws.com"));
    }

    @Test
    void malformedEndpointsAreRejected() {
        for (String bad : new String[] {"ftp://host", "http://", "http://host:port", "http://h/?q=1", "http://u:p@h"}) {
            assertThatThrownBy(() -> EndpointUri.parse(bad, true)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void anEncryptionContextIsSentAsBase64Json() {
        assertThat(decode(KmsEncryptionContext.toHeaderValue("project=flink, team = \"data\"")))
                .isEqualTo("{\"project\":\"flink\",\"team\":\"\\\"data\\\"\"}");
        assertThat(decode(KmsEncryptionContext.toHeaderValue("{\"a\":\"b\"}"))).isEqualTo("{\"a\":\"b\"}");
        String alreadyEncoded = Base64.getEncoder().encodeToString("{\"a\":\"b\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(KmsEncryptionContext.toHeaderValue(alreadyEncoded)).isEqualTo(alreadyEncoded);
        assertThatThrownBy(() -> KmsEncryptionContext.toHeaderValue("=novalue"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static String decode(String base64) {
        return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    }
}
