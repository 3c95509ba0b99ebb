package dev.flinks3.bench.common;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/**
 * Checks that something listens at a URL before a benchmark depends on it (a job is submitted, a
 * server is started): a TCP connect to the URL's host and port, with a short timeout, so a typo in a
 * URL costs seconds and one clear line rather than a job's worth of retries.
 */
public final class Reachability {

    /** How long the connect may take: long enough for a remote region, short enough for a typo. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private Reachability() {}

    /**
     * @param option the option that gave the URL, e.g. {@code --endpoint}, named in the error
     * @param url an {@code http} or {@code https} URL; without a port, 80 or 443
     * @param expected what should answer there, e.g. {@code an S3 endpoint}
     * @throws UsageException if the URL has no host, or nothing accepts a connection there in time
     */
    public static void requireReachable(String option, URI url, String expected) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (url.getHost() == null || !(scheme.equals("http") || scheme.equals("https"))) {
            throw new UsageException(option + " " + url + ": expected an http:// or https:// URL of " + expected);
        }
        int port = url.getPort() != -1 ? url.getPort() : scheme.equals("https") ? 443 : 80;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(url.getHost(), port), (int) CONNECT_TIMEOUT.toMillis());
        } catch (IOException e) {
            throw new UsageException(
                    option + " " + url + ": nothing answers at " + url.getHost() + ":" + port + " (" + e.getMessage()
                            + " within " + CONNECT_TIMEOUT.toSeconds() + " s); expected " + expected,
                    e);
        }
    }
}
