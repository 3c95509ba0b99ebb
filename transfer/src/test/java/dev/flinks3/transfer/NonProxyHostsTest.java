package dev.flinks3.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class NonProxyHostsTest {

    @Test
    void patternsBecomeRegularExpressionsThatMatchAsJavasNonProxyHostsDo() {
        Set<String> regexes = NonProxyHosts.asRegularExpressions(List.of("minio.local", "*.internal", "*", "10.*"));

        assertThat(matches(regexes, "minio.local")).containsExactly(true, false, true, false);
        assertThat(matches(regexes, "minioXlocal")).containsExactly(false, false, true, false);
        assertThat(matches(regexes, "s3.eu.internal")).containsExactly(false, true, true, false);
        assertThat(matches(regexes, "internal")).containsExactly(false, false, true, false);
        assertThat(matches(regexes, "10.0.0.7")).containsExactly(false, false, true, true);
    }

    @Test
    void onlyHostsSuffixWildcardsAndTheStarAreAccepted() {
        assertThat(NonProxyHosts.check("s3.example.com")).isEqualTo("s3.example.com");
        assertThat(NonProxyHosts.check("*.example.com")).isEqualTo("*.example.com");
        assertThat(NonProxyHosts.check("*")).isEqualTo("*");
        assertThat(NonProxyHosts.check("[::1]")).isEqualTo("[::1]");
        for (String bad : List.of("10.*", "s3.*.com", "http://host", "host name", "")) {
            assertThatThrownBy(() -> NonProxyHosts.check(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + bad + "'");
        }
    }

    @Test
    void aProxyShowsItsUserButNeverItsPassword() {
        HttpProxy proxy = new HttpProxy("proxy.corp", 3128, "flink", Secret.ofNullable("hunter2"));

        assertThat(proxy.toString()).isEqualTo("flink:******@proxy.corp:3128");
        assertThat(S3Settings.builder().client(c -> c.proxy(proxy)).build().toString())
                .contains("proxy=flink:******@proxy.corp:3128")
                .doesNotContain("hunter2");
        assertThatThrownBy(() -> new HttpProxy("proxy.corp", 0, null, null)).hasMessageContaining("1..65535");
        assertThatThrownBy(() -> new HttpProxy("proxy.corp", 80, null, Secret.ofNullable("p")))
                .hasMessageContaining("needs a proxy user name");
    }

    private static List<Boolean> matches(Set<String> regexes, String host) {
        return regexes.stream().map(host::matches).toList();
    }
}
