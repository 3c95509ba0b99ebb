package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.DefaultMemoryLimit;
import dev.flinks3.transfer.GetAnswer;
import dev.flinks3.transfer.GetRequest;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.TestSettings;
import dev.flinks3.transfer.read.ReadAheadBudget;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 45, a host name with several addresses (as S3's DNS answers carry): the blocking HTTP client's pooled
 * connections spread over every address the resolver returns, not all on the first. The name resolves (through
 * the lookup this test gives the transport) to 127.0.0.1 and 127.0.0.2; on each a TCP relay on the same port
 * forwards to one S3Proxy and counts the connections it accepted, holding each connection's first answer
 * briefly, so that concurrent positional reads need connections of their own.
 */
@Timeout(60)
class SpreadConnectionsS3ProxyTest {

    private static final String BUCKET = "spread";
    private static final String HOST = "s3.spread.flinks3.test";
    private static final int READS = 8;

    @Test
    void concurrentReadsOpenConnectionsToEveryAddressOfTheHost() throws Exception {
        byte[] data = new byte[64 * 1024];
        new Random(5).nextBytes(data);
        InetAddress first = InetAddress.getByName("127.0.0.1");
        InetAddress second = InetAddress.getByName("127.0.0.2");
        try (EmbeddedS3Server server = EmbeddedS3Server.builder().bucket(BUCKET).start();
                RelayPair relays = RelayPair.start(first, second, server.endpoint());
                S3Transport transport = new S3Transport(
                        new ReadAheadBudget(DefaultMemoryLimit.ofThisJvm()), host -> lookup(host, first, second))) {
            server.putObjectDirectly(BUCKET, "object", data);
            S3Settings settings = TestSettings.forServer(server, ClientSettings.HttpClientType.NETTY)
                    .client(c -> c.endpoint(URI.create("http://" + HOST + ":" + relays.port())))
                    .build();
            try (S3ClientOwner owner = new S3ClientOwner(settings, transport)) {
                ObjectClient client = owner.objectClient();
                ExecutorService readers = Executors.newFixedThreadPool(READS);
                try {
                    List<CompletableFuture<GetAnswer>> reads = new ArrayList<>();
                    for (int i = 0; i < READS; i++) {
                        int start = i * 1024;
                        reads.add(CompletableFuture.supplyAsync(
                                        () -> client.get(GetRequest.into(
                                                S3Location.of("s3", BUCKET, "object"),
                                                start,
                                                ByteBuffer.allocate(1024))),
                                        readers)
                                .thenCompose(read -> read));
                    }
                    for (CompletableFuture<GetAnswer> read : reads) {
                        assertThat(read.get(30, TimeUnit.SECONDS).bytes()).isEqualTo(1024);
                    }
                } finally {
                    readers.shutdownNow();
                }
            }
            assertThat(relays.first.accepted.get() + relays.second.accepted.get())
                    .as("connections opened")
                    .isGreaterThanOrEqualTo(2);
            assertThat(relays.first.accepted).as("connections to 127.0.0.1").hasPositiveValue();
            assertThat(relays.second.accepted).as("connections to 127.0.0.2").hasPositiveValue();
        }
    }

    private static InetAddress[] lookup(String host, InetAddress first, InetAddress second)
            throws UnknownHostException {
        if (host.equals(HOST)) {
            // In the order a resolver gives them every time: the client must not pin to the first.
            return new InetAddress[] {first, second};
        }
        return InetAddress.getAllByName(host);
    }

    /** Two relays on one port, one per address. */
    private static final class RelayPair implements AutoCloseable {
        final Relay first;
        final Relay second;

        private RelayPair(Relay first, Relay second) {
            this.first = first;
            this.second = second;
        }

        static RelayPair start(InetAddress a, InetAddress b, URI upstream) throws IOException {
            for (int attempt = 0; ; attempt++) {
                Relay first = new Relay(a, 0, upstream);
                try {
                    return new RelayPair(first, new Relay(b, first.port(), upstream));
                } catch (BindException taken) {
                    first.close();
                    if (attempt == 10) {
                        throw taken;
                    }
                }
            }
        }

        int port() {
            return first.port();
        }

        @Override
        public void close() {
            first.close();
            second.close();
        }
    }

    /**
     * Forwards every connection to the upstream server and counts them; holds the first bytes of each answer
     * 100 ms, so that requests sent at the same time overlap.
     */
    private static final class Relay implements AutoCloseable {
        final AtomicInteger accepted = new AtomicInteger();
        private final ServerSocket listener;
        private final URI upstream;
        private final ExecutorService threads = Executors.newCachedThreadPool();

        Relay(InetAddress address, int port, URI upstream) throws IOException {
            this.upstream = upstream;
            this.listener = new ServerSocket();
            try {
                listener.bind(new InetSocketAddress(address, port));
            } catch (IOException e) {
                listener.close();
                throw e;
            }
            threads.execute(this::acceptLoop);
        }

        int port() {
            return listener.getLocalPort();
        }

        private void acceptLoop() {
            while (!listener.isClosed()) {
                try {
                    Socket client = listener.accept();
                    accepted.incrementAndGet();
                    Socket server = new Socket(upstream.getHost(), upstream.getPort());
                    threads.execute(() -> copy(client, server, false));
                    threads.execute(() -> copy(server, client, true));
                } catch (IOException e) {
                    if (!listener.isClosed()) {
                        throw new UncheckedIOException(e);
                    }
                }
            }
        }

        private static void copy(Socket from, Socket to, boolean holdFirstBytes) {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream();
                    OutputStream out = to.getOutputStream()) {
                boolean first = holdFirstBytes;
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    if (first) {
                        Thread.sleep(100);
                        first = false;
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // The other side closed: so does this one.
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }

        private static void closeQuietly(Socket socket) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }

        @Override
        public void close() {
            try {
                listener.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            threads.shutdownNow();
        }
    }
}
