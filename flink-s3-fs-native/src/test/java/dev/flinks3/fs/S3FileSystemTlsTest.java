package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.ForwardProxy;
import dev.flinks3.testserver.TestCertificates;
import dev.flinks3.transfer.ClientSettings.HttpClientType;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * TLS to an S3 store whose certificate a private CA signed: S3Proxy on HTTPS only, its certificate
 * made in the test. The CA reaches each HTTP client through 's3.ssl.ca-file' or the JVM trust store;
 * without it the handshake fails with a message naming both. Through a proxy, TLS is tunnelled with
 * CONNECT and still ends at the server.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class S3FileSystemTlsTest {

    private static final String BUCKET = "tls-bucket";
    private static final String TRUST_STORE = "javax.net.ssl.trustStore";

    @TempDir
    static Path dir;

    private static TestCertificates certificates;
    private static EmbeddedS3Server server;

    @BeforeAll
    static void startHttpsServer() throws IOException {
        certificates = TestCertificates.create(dir.resolve("pki"));
        server = EmbeddedS3Server.builder()
                .tls(certificates.serverKeyStore(), TestCertificates.PASSWORD)
                .bucket(BUCKET)
                .start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    @ParameterizedTest
    @EnumSource(HttpClientType.class)
    void theConfiguredCaFileIsTrusted(HttpClientType httpClient) throws IOException {
        Map<String, String> config = trustingTheCa(httpClient);

        assertWritesAndReads(config, "ca-file-" + httpClient);
    }

    @ParameterizedTest
    @EnumSource(HttpClientType.class)
    void theJvmTrustStoreIsTrusted(HttpClientType httpClient) throws IOException {
        String before = System.getProperty(TRUST_STORE);
        System.setProperty(TRUST_STORE, certificates.trustStore().toString());
        System.setProperty(TRUST_STORE + "Password", TestCertificates.PASSWORD);
        try {
            assertWritesAndReads(config(httpClient), "jvm-trust-store-" + httpClient);
        } finally {
            System.clearProperty(TRUST_STORE + "Password");
            if (before == null) {
                System.clearProperty(TRUST_STORE);
            } else {
                System.setProperty(TRUST_STORE, before);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(HttpClientType.class)
    void withoutTheCaTheHandshakeFailsNamingTheSwitches(HttpClientType httpClient) throws IOException {
        Map<String, String> config = config(httpClient);
        config.put("s3.retry.max-num-retries", "0");
        FileSystem fs = fileSystem(config);

        assertThatThrownBy(() -> fs.getFileStatus(new org.apache.flink.core.fs.Path("s3://" + BUCKET + "/any")))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("s3.ssl.ca-file")
                .hasMessageContaining("javax.net.ssl.trustStore");
    }

    @ParameterizedTest
    @EnumSource(HttpClientType.class)
    void anHttpsEndpointIsTunnelledThroughTheConfiguredProxy(HttpClientType httpClient) throws IOException {
        try (ForwardProxy proxy = ForwardProxy.start()) {
            Map<String, String> config = trustingTheCa(httpClient);
            config.put("s3.proxy.host", "127.0.0.1");
            config.put("s3.proxy.port", String.valueOf(proxy.port()));

            assertWritesAndReads(config, "tunnelled-" + httpClient);

            assertThat(proxy.requestLines())
                    .isNotEmpty()
                    .allMatch(line -> line.startsWith("CONNECT 127.0.0.1:" + server.port() + " "));
        }
    }

    @ParameterizedTest
    @EnumSource(HttpClientType.class)
    void anHttpsEndpointTakesTheHttpsProxyProperties(HttpClientType httpClient) throws IOException {
        try (ForwardProxy proxy = ForwardProxy.start()) {
            Map<String, String> config = trustingTheCa(httpClient);
            System.setProperty("https.proxyHost", "127.0.0.1");
            System.setProperty("https.proxyPort", String.valueOf(proxy.port()));
            try {
                assertWritesAndReads(config, "https-proxy-properties-" + httpClient);
            } finally {
                System.clearProperty("https.proxyHost");
                System.clearProperty("https.proxyPort");
            }

            assertThat(proxy.connections()).isPositive();
        }
    }

    @Test
    void aCaFileWithoutCertificatesFailsWhenTheFactoryIsConfigured() throws IOException {
        Path notPem = Files.writeString(dir.resolve("not-a-ca.pem"), "hello");
        Map<String, String> config = config(HttpClientType.NETTY);
        config.put("s3.ssl.ca-file", notPem.toString());

        assertThatThrownBy(() -> new S3FileSystemFactory().configure(Configuration.fromMap(config)))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'s3.ssl.ca-file'")
                .hasMessageContaining(notPem.toString())
                .hasMessageContaining("PEM");
    }

    private static void assertWritesAndReads(Map<String, String> config, String key) throws IOException {
        FileSystem fs = fileSystem(config);
        org.apache.flink.core.fs.Path path = new org.apache.flink.core.fs.Path("s3://" + BUCKET + "/" + key);
        byte[] content = ("written over TLS to " + key).getBytes(StandardCharsets.UTF_8);

        try (OutputStream out = fs.create(path, WriteMode.NO_OVERWRITE)) {
            out.write(content);
        }
        try (InputStream in = fs.open(path)) {
            assertThat(in.readAllBytes()).isEqualTo(content);
        }
        assertThat(server.requestLog().entries()).isNotEmpty();
    }

    private static FileSystem fileSystem(Map<String, String> config) throws IOException {
        S3FileSystemFactory factory = new S3FileSystemFactory();
        factory.configure(Configuration.fromMap(config));
        return factory.create(java.net.URI.create("s3://" + BUCKET));
    }

    /** {@link #config} with the test CA's PEM file as 's3.ssl.ca-file'. */
    private static Map<String, String> trustingTheCa(HttpClientType httpClient) {
        Map<String, String> config = config(httpClient);
        config.put("s3.ssl.ca-file", certificates.caPem().toString());
        return config;
    }

    private static Map<String, String> config(HttpClientType httpClient) {
        return ServerConfigs.forServer(server, httpClient);
    }
}
