package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.ForwardProxy;
import dev.flinks3.transfer.ClientSettings.HttpClientType;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * S3 requests through an HTTP proxy: a forwarding proxy on 127.0.0.1 in front of S3Proxy counts the
 * connections it carries. The configured proxy, the JVM's proxy system properties, the proxy
 * environment variables (in a child JVM) and the non-proxy hosts each take effect with both HTTP
 * clients.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class S3FileSystemProxyTest {

    private static final String BUCKET = "proxy-bucket";

    @TempDir
    java.nio.file.Path dir;

    private EmbeddedS3Server server;
    private ForwardProxy proxy;

    @BeforeEach
    void start() throws IOException {
        server = EmbeddedS3Server.builder().bucket(BUCKET).start();
        proxy = ForwardProxy.start();
    }

    @AfterEach
    void stop() throws Exception {
        proxy.close();
        server.close();
    }

    @ParameterizedTest
    @EnumSource(HttpClientType.class)
    void requestsGoThroughTheConfiguredProxyWithItsCredentials(HttpClientType httpClient) throws IOException {
        Map<String, String> config = proxiedConfig(httpClient);
        config.put("s3.proxy.username", "flink");
        config.put("fs.s3a.proxy.password", "proxy-pass");

        writeAndRead(config, "configured-" + httpClient);

        assertThat(proxy.connections()).isPositive();
        assertThat(proxy.requestLines()).allMatch(line -> line.contains("127.0.0.1:" + server.port()));
        assertThat(proxy.proxyAuthorizations())
                .isNotEmpty()
                .allMatch(value -> value.equals("Basic "
                        + Base64.getEncoder().encodeToString("flink:proxy-pass".getBytes(StandardCharsets.UTF_8))));
    }

    @ParameterizedTest
    @EnumSource(HttpClientType.class)
    void aNonProxyHostIsReachedDirectly(HttpClientType httpClient) throws IOException {
        Map<String, String> config = proxiedConfig(httpClient);
        config.put("s3.proxy.non-proxy-hosts", "s3.example.internal|127.0.0.1");

        writeAndRead(config, "bypass-" + httpClient);

        assertThat(proxy.connections()).isZero();
        assertThat(server.requestLog().entries()).isNotEmpty();
    }

    @ParameterizedTest
    @EnumSource(HttpClientType.class)
    void withoutProxyKeysTheJvmProxyPropertiesApply(HttpClientType httpClient) throws IOException {
        System.setProperty("http.proxyHost", "127.0.0.1");
        System.setProperty("http.proxyPort", String.valueOf(proxy.port()));
        try {
            writeAndRead(config(httpClient), "system-properties-" + httpClient);
        } finally {
            System.clearProperty("http.proxyHost");
            System.clearProperty("http.proxyPort");
        }

        assertThat(proxy.connections()).isPositive();
    }

    @ParameterizedTest
    @EnumSource(HttpClientType.class)
    void withoutProxyKeysOrPropertiesTheProxyEnvironmentVariablesApply(HttpClientType httpClient) throws Exception {
        ChildJvmWriter.Result child = ChildJvmWriter.run(
                dir,
                List.of(),
                Map.of("HTTP_PROXY", "http://127.0.0.1:" + proxy.port()),
                1,
                BUCKET,
                config(httpClient));

        assertThat(child.exitValue).as(child.output).isZero();
        assertThat(proxy.connections()).as(child.output).isPositive();
    }

    @Test
    void noProxyInTheEnvironmentIsHonoured() throws Exception {
        ChildJvmWriter.Result child = ChildJvmWriter.run(
                dir,
                List.of(),
                Map.of("HTTP_PROXY", "http://127.0.0.1:" + proxy.port(), "NO_PROXY", "127.0.0.1"),
                1,
                BUCKET,
                config(HttpClientType.NETTY));

        assertThat(child.exitValue).as(child.output).isZero();
        assertThat(proxy.connections()).as(child.output).isZero();
    }

    private void writeAndRead(Map<String, String> config, String key) throws IOException {
        S3FileSystemFactory factory = new S3FileSystemFactory();
        factory.configure(Configuration.fromMap(config));
        FileSystem fs = factory.create(URI.create("s3://" + BUCKET));
        Path path = new Path("s3://" + BUCKET + "/" + key);
        byte[] content = ("through the proxy: " + key).getBytes(StandardCharsets.UTF_8);
        try (OutputStream out = fs.create(path, WriteMode.NO_OVERWRITE)) {
            out.write(content);
        }
        try (InputStream in = fs.open(path)) {
            assertThat(in.readAllBytes()).isEqualTo(content);
        }
        // Closes the S3 clients, and with them their pooled connections through the proxy.
        factory.configure(new Configuration());
    }

    /** {@link #config} with the test's proxy as 's3.proxy.host' and 's3.proxy.port'. */
    private Map<String, String> proxiedConfig(HttpClientType httpClient) {
        Map<String, String> config = config(httpClient);
        config.put("s3.proxy.host", "127.0.0.1");
        config.put("s3.proxy.port", String.valueOf(proxy.port()));
        return config;
    }

    private Map<String, String> config(HttpClientType httpClient) {
        Map<String, String> config = ServerConfigs.forServer(server, httpClient);
        config.put("s3.retry.max-num-retries", "1");
        return config;
    }
}
