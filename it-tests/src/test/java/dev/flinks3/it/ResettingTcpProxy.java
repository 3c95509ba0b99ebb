package dev.flinks3.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on 127.0.0.1 in front of an HTTP server that, once armed, resets one connection after
 * it has carried a given number of response bytes: the client sees "connection reset" in the middle
 * of a response body, as after a broken network path or a load balancer dropping a connection.
 * Everything else is forwarded unchanged; the first byte of each connection is recorded, to tell
 * plain HTTP from TLS. One thread per direction per connection; for tests only.
 */
final class ResettingTcpProxy implements AutoCloseable {

    private final InetSocketAddress upstream;
    private final ServerSocket listener;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicLong resetAfterBytes = new AtomicLong(-1);
    private final AtomicInteger resets = new AtomicInteger();
    private final List<Integer> firstRequestBytes = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    /** Starts forwarding to {@code upstream} ({@code http://host:port}). */
    ResettingTcpProxy(URI upstream) throws IOException {
        this.upstream = new InetSocketAddress(upstream.getHost(), upstream.getPort());
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::acceptLoop, "resetting-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** {@code http://127.0.0.1:<port>} of the proxy. */
    URI endpoint() {
        return URI.create("http://127.0.0.1:" + listener.getLocalPort());
    }

    /** Resets the first connection whose response bytes reach {@code bytes}; once. */
    void resetOnceAfterResponseBytes(long bytes) {
        resetAfterBytes.set(bytes);
    }

    /** Client connections open through the proxy now (each is a pair of sockets until either side closes). */
    int openConnections() {
        return sockets.size() / 2;
    }

    /**
     * The first byte each client connection sent, in the order they arrived: {@code 'H'} of {@code
     * HEAD}, {@code 'G'} of {@code GET} for plain HTTP, {@code 0x16} (a TLS handshake record) for TLS.
     */
    List<Integer> firstRequestBytes() {
        return List.copyOf(firstRequestBytes);
    }

    /** How many connections were reset so far. */
    int resets() {
        return resets.get();
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(upstream.getAddress(), upstream.getPort());
                sockets.add(client);
                sockets.add(server);
                pump(client, server, false);
                pump(server, client, true);
            } catch (IOException e) {
                if (!listener.isClosed()) {
                    e.printStackTrace();
                }
            }
        }
    }

    private void pump(Socket from, Socket to, boolean response) {
        Thread thread = new Thread(
                () -> {
                    byte[] buffer = new byte[16 * 1024];
                    long forwarded = 0;
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        int n;
                        while ((n = in.read(buffer)) >= 0) {
                            if (!response && forwarded == 0 && n > 0) {
                                firstRequestBytes.add(buffer[0] & 0xff);
                            }
                            long limit = response ? resetAfterBytes.get() : -1;
                            if (limit >= 0 && forwarded + n >= limit && resetAfterBytes.compareAndSet(limit, -1)) {
                                out.write(buffer, 0, (int) Math.max(0, limit - forwarded));
                                out.flush();
                                reset(from);
                                reset(to);
                                resets.incrementAndGet();
                                return;
                            }
                            out.write(buffer, 0, n);
                            forwarded += n;
                        }
                    } catch (IOException e) {
                        // The peer closed or reset; close the other side too.
                    } finally {
                        closeQuietly(from);
                        closeQuietly(to);
                    }
                },
                "resetting-proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    /** SO_LINGER 0 makes close() send RST instead of FIN. */
    private static void reset(Socket socket) throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    private void closeQuietly(Socket socket) {
        sockets.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        sockets.forEach(this::closeQuietly);
    }
}
