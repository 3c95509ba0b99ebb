package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.testserver.RequestKind;
import java.io.IOException;
import java.util.Map;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code s3.ssl.enabled} takes effect: it chooses the scheme of an {@code s3.endpoint} written without
 * one ({@code 127.0.0.1:<port>}, as S3A and Presto configurations write it). The endpoint is a TCP
 * proxy in front of the plain-HTTP S3Proxy that records the first byte of every connection. With
 * {@code false} the filesystem speaks HTTP ({@code HEAD ...}) and finds the object; with {@code true}
 * (the default) every connection opens with a TLS handshake record ({@code 0x16}), the plain-HTTP
 * server cannot answer it, the request fails and no S3 request reaches the server.
 */
class SslEnabledTest extends AbstractS3ProxyFileSystemTest {

    private static final int TLS_HANDSHAKE_RECORD = 0x16;

    @Test
    @Timeout(60)
    void falseSendsPlainHttpToAnEndpointWithoutScheme() throws Exception {
        Path object = new Path(dir, "plain");
        write(object, randomBytes(100, 1));
        server.requestLog().clear();

        try (ResettingTcpProxy tcp = new ResettingTcpProxy(target.endpoint())) {
            FileSystemFactory factory = factoryWithSsl(tcp, "false");
            try {
                assertThat(factory.create(object.toUri()).getFileStatus(object).getLen())
                        .isEqualTo(100);
            } finally {
                FlinkS3FileSystems.closeClients(factory);
            }
            assertThat(tcp.firstRequestBytes())
                    .as("first bytes of the connections")
                    .isNotEmpty()
                    .allSatisfy(first -> assertThat((char) (int) first).isEqualTo('H'));
        }
        assertThat(server.requestLog().entries(RequestKind.HEAD_OBJECT))
                .as("HEADs at the server")
                .anySatisfy(head -> assertThat(head.key()).isEqualTo(key(object)));
    }

    @Test
    @Timeout(60)
    void trueSendsTlsToAnEndpointWithoutScheme() throws Exception {
        Path object = new Path(dir, "tls");
        write(object, randomBytes(100, 2));
        server.requestLog().clear();

        try (ResettingTcpProxy tcp = new ResettingTcpProxy(target.endpoint())) {
            FileSystemFactory factory = factoryWithSsl(tcp, "true");
            try {
                assertThatThrownBy(() -> factory.create(object.toUri()).getFileStatus(object))
                        .isInstanceOf(IOException.class)
                        .hasMessageContaining("HeadObject failed");
            } finally {
                FlinkS3FileSystems.closeClients(factory);
            }
            assertThat(tcp.firstRequestBytes())
                    .as("first bytes of the connections")
                    .isNotEmpty()
                    .containsOnly(TLS_HANDSHAKE_RECORD);
        }
        assertThat(server.requestLog().entries(RequestKind.HEAD_OBJECT))
                .as("HEADs at the server")
                .isEmpty();
    }

    /** A factory whose endpoint is the proxy written as host:port, with {@code s3.ssl.enabled: ssl}. */
    private FileSystemFactory factoryWithSsl(ResettingTcpProxy tcp, String ssl) {
        return FlinkS3FileSystems.factory(
                "s3",
                target.flinkConfiguration(Map.of(
                        "s3.endpoint",
                        tcp.endpoint().getHost() + ":" + tcp.endpoint().getPort(),
                        "s3.ssl.enabled",
                        ssl,
                        "s3.retry.max-num-retries",
                        "0")));
    }
}
