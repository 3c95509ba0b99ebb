package dev.flinks3.testserver;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP proxy on 127.0.0.1 for tests, in front of a server on this machine: {@code CONNECT
 * host:port} opens a tunnel (what clients do for {@code https://} endpoints), a request in absolute
 * form ({@code GET http://host:port/path}) is forwarded as written (what clients do for {@code http://}
 * endpoints; the server accepts the absolute form). After the first request the connection carries
 * bytes both ways unchanged until either side closes it, so one client connection reaches one target.
 *
 * <p>Counts the connections it proxied and keeps each one's first request line and {@code
 * Proxy-Authorization} header. Targets other than loopback addresses are refused with 403. {@link
 * #close()} stops accepting and closes every open connection.
 */
public final class ForwardProxy implements Closeable {

    private static final int MAX_HEAD_BYTES = 64 * 1024;

    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "flinks3-test-proxy");
        t.setDaemon(true);
        return t;
    });
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final List<String> requestLines = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();

    private ForwardProxy(ServerSocket server) {
        this.server = server;
    }

    /** Starts listening on a free port of 127.0.0.1. */
    public static ForwardProxy start() throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        ForwardProxy proxy = new ForwardProxy(socket);
        proxy.threads.execute(proxy::acceptLoop);
        return proxy;
    }

    /** The port the proxy listens on. */
    public int port() {
        return server.getLocalPort();
    }

    /** Client connections proxied so far (tunnels and forwarded requests). */
    public int connections() {
        return connections.get();
    }

    /** The first request line of every proxied connection, e.g. {@code CONNECT 127.0.0.1:9000 HTTP/1.1}. */
    public List<String> requestLines() {
        return List.copyOf(requestLines);
    }

    /** The {@code Proxy-Authorization} header values received, in order. */
    public List<String> proxyAuthorizations() {
        return List.copyOf(authorizations);
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                open.add(client);
                threads.execute(() -> serve(client));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            InputStream in = client.getInputStream();
            byte[] head = readHead(in);
            String text = new String(head, StandardCharsets.ISO_8859_1);
            String requestLine = text.substring(0, text.indexOf("\r\n"));
            for (String line : text.split("\r\n")) {
                if (line.toLowerCase(Locale.ROOT).startsWith("proxy-authorization:")) {
                    authorizations.add(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            String[] parts = requestLine.split(" ");
            boolean tunnel = parts[0].equals("CONNECT");
            URI target = URI.create(tunnel ? "//" + parts[1] : parts[1]);
            if (!InetAddress.getByName(target.getHost()).isLoopbackAddress()) {
                client.getOutputStream()
                        .write("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n"
                                .getBytes(StandardCharsets.ISO_8859_1));
                return;
            }
            connections.incrementAndGet();
            requestLines.add(requestLine);
            try (Socket upstream = new Socket(target.getHost(), target.getPort())) {
                open.add(upstream);
                if (tunnel) {
                    client.getOutputStream()
                            .write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                } else {
                    upstream.getOutputStream().write(head);
                }
                threads.execute(() -> pump(upstream, client));
                pump(client, upstream);
            }
        } catch (IOException | RuntimeException e) {
            // the client or the server went away: the connection ends
        } finally {
            open.remove(client);
        }
    }

    /** Bytes up to and including the blank line that ends a request head. */
    private static byte[] readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length) {
            int b = in.read();
            if (b < 0 || head.size() > MAX_HEAD_BYTES) {
                throw new IOException("no complete request head");
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toByteArray();
    }

    /** Copies until {@code from} ends, then half-closes {@code to}. */
    private static void pump(Socket from, Socket to) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            in.transferTo(out);
            to.shutdownOutput();
        } catch (IOException closed) {
            // either side closed the connection
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : open) {
            socket.close();
        }
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
