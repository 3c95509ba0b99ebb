package dev.flinks3.transfer.aws;

import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.HttpProxy;
import dev.flinks3.transfer.NonProxyHosts;
import dev.flinks3.transfer.Secret;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.utils.ProxyConfigProvider;

/**
 * The proxy route of the S3 requests, the same for both HTTP clients: the configured {@link
 * HttpProxy}, or else the one the JVM's proxy system properties ({@code https.proxyHost},
 * {@code https.proxyPort}, {@code https.proxyUser}, {@code https.proxyPassword} for an {@code
 * https://} endpoint, the {@code http.*} ones for an {@code http://} endpoint, and {@code
 * http.nonProxyHosts}) or, without those, the environment ({@code HTTPS_PROXY} for an {@code
 * https://} endpoint, {@code HTTP_PROXY} for an {@code http://} one, and {@code NO_PROXY}) name. The SDK's own resolver of those settings reads them.
 *
 * <p>The SDK's proxy configurations would read the {@code https.*} settings only for a proxy reached
 * over TLS; here the endpoint's scheme chooses them, as it does for Java's own URL connections, and
 * the proxy is always reached over plain HTTP.
 */
public final class HttpProxies {

    private final HttpProxy proxy;
    private final List<String> nonProxyHosts;

    private HttpProxies(HttpProxy proxy, List<String> nonProxyHosts) {
        this.proxy = proxy;
        this.nonProxyHosts = List.copyOf(nonProxyHosts);
    }

    /** The route for {@code settings}: its proxy and non-proxy hosts, or the system's where unset. */
    public static HttpProxies of(ClientSettings settings) {
        if (settings.proxy() != null) {
            return new HttpProxies(
                    settings.proxy(), settings.nonProxyHosts() == null ? List.of() : settings.nonProxyHosts());
        }
        String scheme =
                settings.endpoint() == null ? "https" : settings.endpoint().getScheme();
        ProxyConfigProvider system = ProxyConfigProvider.fromSystemEnvironmentSettings(true, true, scheme);
        if (system == null || system.host() == null || system.host().isEmpty()) {
            return new HttpProxies(null, List.of());
        }
        int port = system.port() > 0 ? system.port() : HttpProxy.defaultPort(scheme);
        HttpProxy fromSystem = new HttpProxy(
                system.host(),
                port,
                system.userName().orElse(null),
                system.userName().isPresent()
                        ? Secret.ofNullable(system.password().orElse(null))
                        : null);
        List<String> bypass = settings.nonProxyHosts() != null
                ? settings.nonProxyHosts()
                : new ArrayList<>(system.rawNonProxyHosts());
        return new HttpProxies(fromSystem, bypass);
    }

    /** The proxy requests go through, if any. */
    public Optional<HttpProxy> proxy() {
        return Optional.ofNullable(proxy);
    }

    /** Host patterns reached directly ({@code host}, {@code *.domain}, {@code *}). */
    public List<String> nonProxyHosts() {
        return nonProxyHosts;
    }

    /** The Netty client's proxy configuration; only what is resolved here, nothing read again. */
    public software.amazon.awssdk.http.nio.netty.ProxyConfiguration netty() {
        software.amazon.awssdk.http.nio.netty.ProxyConfiguration.Builder b =
                software.amazon.awssdk.http.nio.netty.ProxyConfiguration.builder()
                        .useSystemPropertyValues(false)
                        .useEnvironmentVariableValues(false)
                        .scheme("http")
                        .host(proxy.host())
                        .port(proxy.port())
                        .nonProxyHosts(NonProxyHosts.asRegularExpressions(nonProxyHosts));
        if (proxy.username() != null) {
            b.username(proxy.username())
                    .password(proxy.password() == null ? null : proxy.password().reveal());
        }
        return b.build();
    }

    /**
     * The Apache HTTP client's proxy configuration (blocking requests); its route planner matches the host
     * against regular expressions, as Netty's does.
     */
    public software.amazon.awssdk.http.apache5.ProxyConfiguration apache5() {
        software.amazon.awssdk.http.apache5.ProxyConfiguration.Builder b =
                software.amazon.awssdk.http.apache5.ProxyConfiguration.builder()
                        .useSystemPropertyValues(false)
                        .useEnvironmentVariableValues(false)
                        .endpoint(URI.create("http://" + proxy.host() + ":" + proxy.port()))
                        .nonProxyHosts(NonProxyHosts.asRegularExpressions(nonProxyHosts));
        if (proxy.username() != null) {
            b.username(proxy.username())
                    .password(proxy.password() == null ? null : proxy.password().reveal());
        }
        return b.build();
    }

    /** The CRT client's proxy configuration; the SDK turns the patterns into curl-style entries. */
    public software.amazon.awssdk.http.crt.ProxyConfiguration crt() {
        software.amazon.awssdk.http.crt.ProxyConfiguration.Builder b =
                software.amazon.awssdk.http.crt.ProxyConfiguration.builder()
                        .useSystemPropertyValues(false)
                        .useEnvironmentVariableValues(false)
                        .scheme("http")
                        .host(proxy.host())
                        .port(proxy.port())
                        .nonProxyHosts(Set.copyOf(nonProxyHosts));
        if (proxy.username() != null) {
            b.username(proxy.username())
                    .password(proxy.password() == null ? null : proxy.password().reveal());
        }
        return b.build();
    }

    /** The proxy as {@code host:port} (password hidden) and the non-proxy hosts, or {@code none}. */
    @Override
    public String toString() {
        return proxy == null ? "none" : proxy + (nonProxyHosts.isEmpty() ? "" : " except " + nonProxyHosts);
    }
}
