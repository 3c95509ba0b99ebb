package dev.flinks3.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP port on 127.0.0.1 where connecting hangs: a listener that never accepts, whose accept queue
 * is filled by connections of its own, so the kernel drops the SYN of every further connection and
 * the client waits, retransmitting, until its connect timeout (as toward a host behind a firewall
 * that drops packets). Closing it refuses the waiting connections. For tests only.
 */
final class FullBacklogListener implements AutoCloseable {

    private static final int BACKLOG = 1;
    private static final int PROBE_TIMEOUT_MS = 300;
    private static final int MAX_FILLERS = 64;

    private final ServerSocket listener;
    private final List<Socket> fillers = new ArrayList<>();

    /** @throws IllegalStateException if the queue does not fill (not Linux-like TCP) */
    FullBacklogListener() throws IOException {
        listener = new ServerSocket(0, BACKLOG, InetAddress.getLoopbackAddress());
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), listener.getLocalPort());
        while (fillers.size() < MAX_FILLERS) {
            Socket filler = new Socket();
            try {
                filler.connect(address, PROBE_TIMEOUT_MS);
                fillers.add(filler);
            } catch (SocketTimeoutException full) {
                filler.close();
                return;
            }
        }
        close();
        throw new IllegalStateException("the accept queue of " + address + " took " + MAX_FILLERS + " connections");
    }

    /** {@code http://127.0.0.1:<port>}. */
    URI endpoint() {
        return URI.create("http://127.0.0.1:" + listener.getLocalPort());
    }

    @Override
    public void close() throws IOException {
        for (Socket filler : fillers) {
            filler.close();
        }
        listener.close();
    }
}
