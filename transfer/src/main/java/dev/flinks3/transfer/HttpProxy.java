package dev.flinks3.transfer;

import java.util.Objects;

/**
 * An HTTP proxy that S3 requests go through: host, port and optional basic-authentication
 * credentials. The connection to the proxy is plain HTTP; requests to an {@code https://} endpoint
 * are tunnelled through it with {@code CONNECT}, so TLS still ends at the S3 server. Immutable;
 * {@link #toString()} never shows the password.
 */
public final class HttpProxy {

    private final String host;
    private final int port;
    private final String username;
    private final Secret password;

    /**
     * @param host the proxy's host name or IP address
     * @param port the proxy's TCP port, 1 to 65535
     * @param username user name for the proxy's basic authentication, or {@code null}
     * @param password its password, or {@code null}
     * @throws IllegalArgumentException if the host is blank, the port outside 1..65535, or a password is
     *     given without a user name
     */
    public HttpProxy(String host, int port, String username, Secret password) {
        if (host == null || host.trim().isEmpty()) {
            throw new IllegalArgumentException("proxy host must not be blank");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("proxy port " + port + " is outside 1..65535");
        }
        if (password != null && (username == null || username.isEmpty())) {
            throw new IllegalArgumentException("a proxy password needs a proxy user name");
        }
        this.host = host.trim();
        this.port = port;
        this.username = username == null || username.isEmpty() ? null : username;
        this.password = password;
    }

    /**
     * Port of a proxy given without one, as S3A and Java assume: 80 for an {@code http} endpoint, 443
     * otherwise.
     */
    public static int defaultPort(String endpointScheme) {
        return "http".equalsIgnoreCase(endpointScheme) ? 80 : 443;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    /** User name for basic authentication, or {@code null} for none. */
    public String username() {
        return username;
    }

    /** Password for basic authentication, or {@code null}. */
    public Secret password() {
        return password;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof HttpProxy)) {
            return false;
        }
        HttpProxy that = (HttpProxy) o;
        return host.equals(that.host)
                && port == that.port
                && Objects.equals(username, that.username)
                && Objects.equals(password, that.password);
    }

    @Override
    public int hashCode() {
        return Objects.hash(host, port, username);
    }

    /** {@code host:port}, with the user name if any; the password shows as {@code ******}. */
    @Override
    public String toString() {
        return (username == null ? "" : username + (password == null ? "" : ":" + password) + "@") + host + ":" + port;
    }
}
