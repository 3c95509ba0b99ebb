package dev.flinks3.it.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay in front of the WireMock proxy, for the one fault WireMock cannot make: a connection
 * reset (TCP RST) in the middle of an answer's body. WireMock can reset a connection instead of an
 * answer, or end one early with a clean close; a real network breaks mid-body with a reset.
 *
 * <p>Bytes pass unchanged both ways. An answer that carries the header {@value #HEADER} with a byte
 * count (added by {@link FaultTransformer}) is forwarded up to that many bytes of its body, then both
 * sockets are reset. One thread per direction per connection; for tests only.
 */
final class MidBodyResetRelay implements AutoCloseable {

    /** The header that asks for a reset after the given number of body bytes. */
    static final String HEADER = "X-Flinks3-Reset-Body-After";

    private static final byte[] MARKER =
            ("\r\n" + HEADER.toLowerCase(Locale.ROOT) + ": ").getBytes(StandardCharsets.US_ASCII);

    private final URI upstream;
    private final ServerSocket listener;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

    /** Starts relaying from a free port of 127.0.0.1 to {@code upstream} ({@code http://host:port}). */
    MidBodyResetRelay(URI upstream) throws IOException {
        this.upstream = upstream;
        this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        daemon("mid-body-reset-relay-accept", this::acceptLoop).start();
    }

    /** {@code http://127.0.0.1:<port>} of the relay. */
    URI endpoint() {
        return URI.create("http://127.0.0.1:" + listener.getLocalPort());
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(upstream.getHost(), upstream.getPort());
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(server);
                daemon("mid-body-reset-relay-request", () -> pump(client, server, null))
                        .start();
                daemon("mid-body-reset-relay-answer", () -> pump(server, client, new ResetPoint()))
                        .start();
            } catch (IOException e) {
                // closed while accepting, or the upstream refused: the client sees its connection closed
            }
        }
    }

    /** Copies {@code from} to {@code to}; resets both where {@code resetPoint} (if any) says so. */
    private void pump(Socket from, Socket to, ResetPoint resetPoint) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                int cut = resetPoint == null ? -1 : resetPoint.scan(buffer, n);
                if (cut >= 0) {
                    out.write(buffer, 0, cut);
                    out.flush();
                    reset(to);
                    reset(from);
                    return;
                }
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            // the peer closed or reset; close the other side too
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    /** SO_LINGER 0 makes close() send RST instead of FIN. */
    private void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            // already closed
        }
        closeQuietly(socket);
    }

    private void closeQuietly(Socket socket) {
        sockets.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    @Override
    public void close() throws IOException {
        listener.close();
        sockets.forEach(this::closeQuietly);
    }

    /**
     * Finds, in an answer stream, the marker header, its byte count, the end of the headers and then
     * the body byte at which to reset. Keeps its state across buffers.
     */
    private static final class ResetPoint {
        private int matched;
        private long count = -1;
        private boolean inCount;
        private int headerEndMatched;
        private long bodyLeft = -1;

        /** The index in {@code buffer[0, n)} to cut at, or -1 to forward everything. */
        int scan(byte[] buffer, int n) {
            for (int i = 0; i < n; i++) {
                if (bodyLeft >= 0) {
                    if (bodyLeft == 0) {
                        return i;
                    }
                    long take = Math.min(bodyLeft, n - i);
                    bodyLeft -= take;
                    i += (int) take - 1;
                    if (bodyLeft == 0 && i + 1 == n) {
                        return n;
                    }
                    continue;
                }
                byte b = buffer[i];
                if (inCount) {
                    if (b >= '0' && b <= '9') {
                        count = 10 * Math.max(count, 0) + (b - '0');
                        continue;
                    }
                    inCount = false;
                    headerEndMatched = b == '\r' ? 1 : 0;
                    continue;
                }
                if (count >= 0) {
                    headerEndMatched = nextHeaderEnd(headerEndMatched, b);
                    if (headerEndMatched == 4) {
                        bodyLeft = count;
                        if (bodyLeft == 0) {
                            return i + 1;
                        }
                    }
                    continue;
                }
                byte lower = (byte) Character.toLowerCase((char) b);
                matched = lower == MARKER[matched] ? matched + 1 : (lower == MARKER[0] ? 1 : 0);
                if (matched == MARKER.length) {
                    inCount = true;
                    matched = 0;
                }
            }
            return -1;
        }

        /** Progress through {@code \r\n\r\n}: 4 when the headers have ended. */
        private static int nextHeaderEnd(int matchedSoFar, byte b) {
            boolean expectCr = matchedSoFar % 2 == 0;
            if (expectCr ? b == '\r' : b == '\n') {
                return matchedSoFar + 1;
            }
            return b == '\r' ? 1 : 0;
        }
    }
}
