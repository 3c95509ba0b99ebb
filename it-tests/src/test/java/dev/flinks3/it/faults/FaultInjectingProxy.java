package dev.flinks3.it.faults;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.flinks3.testserver.RequestKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP proxy between the code under test and the S3 server that spoils chosen requests: WireMock
 * (in-process, standalone jar) forwards every request to the server unless an armed {@link FaultRule}
 * takes it. Rules are tried in the order they were armed; the first that takes a request decides its
 * fault. {@link FaultFilter} applies the faults that keep the request from the server, {@link
 * FaultTransformer} those that spoil the server's answer. A {@link MidBodyResetRelay} in front of
 * WireMock resets connections in the middle of a body, which WireMock cannot do itself.
 *
 * <p>It records every request with the headers the client sent ({@link #recorded()}) and can strip
 * headers the server does not implement ({@link #stripHeaders}). The proxy preserves the {@code Host} header, so SigV4 signatures computed for the proxy's address
 * still verify at the server. WireMock's request journal is off: a throttling storm sends gigabytes
 * through it. Thread-safe; close it after use.
 */
public final class FaultInjectingProxy implements AutoCloseable {

    /** Enough Jetty threads for 16 writers with 4 parts in flight each, plus reads and listings. */
    private static final int CONTAINER_THREADS = 160;

    private static final int PROXY_TIMEOUT_MS = 120_000;

    /**
     * How long the proxy keeps an idle connection of the client open: longer than any test's client keeps
     * one in its pool (60 s by default), so the proxy never closes a connection the client may pick for its
     * next request. With Jetty's 30 s default a close could cross a request the client had just sent on it; that
     * request failed and was retried, a retry the exact-count tests would take for one the fault caused.
     */
    private static final long IDLE_TIMEOUT_MS = 600_000;

    private final List<FaultRule> rules = new CopyOnWriteArrayList<>();
    private final List<ProxiedRequest> recorded = new CopyOnWriteArrayList<>();
    private final List<String> strippedHeaderPrefixes = new CopyOnWriteArrayList<>();
    private final FaultTransformer transformer = new FaultTransformer();
    private final WireMockServer wireMock;
    private final MidBodyResetRelay relay;

    /**
     * Starts a proxy on a free port of 127.0.0.1 in front of {@code upstream} ({@code http://host:port}).
     *
     * @throws UncheckedIOException if the relay cannot listen
     */
    public FaultInjectingProxy(URI upstream) {
        wireMock = new WireMockServer(wireMockConfig()
                .bindAddress("127.0.0.1")
                .dynamicPort()
                .containerThreads(CONTAINER_THREADS)
                .preserveHostHeader(true)
                .disableRequestJournal()
                .stubRequestLoggingDisabled(true)
                .gzipDisabled(true)
                // WireMock reads up to this much of a body for its serve event before sending; a body cut
                // halfway must only fail when sent.
                .maxLoggedResponseSize(1)
                .proxyTimeout(PROXY_TIMEOUT_MS)
                .jettyIdleTimeout(IDLE_TIMEOUT_MS)
                .extensionScanningEnabled(false)
                .extensions(new FaultFilter(rules, transformer, recorded, strippedHeaderPrefixes), transformer));
        wireMock.start();
        wireMock.stubFor(any(anyUrl()).willReturn(aResponse().proxiedFrom(upstream.toString())));
        try {
            relay = new MidBodyResetRelay(URI.create("http://127.0.0.1:" + wireMock.port()));
        } catch (IOException e) {
            wireMock.stop();
            throw new UncheckedIOException("Could not start the relay in front of WireMock", e);
        }
    }

    /** {@code http://127.0.0.1:<port>} the code under test talks to. */
    public URI endpoint() {
        return relay.endpoint();
    }

    /** Spoils the next {@code times} requests of {@code kind} with {@code fault}. */
    public FaultRule failNext(RequestKind kind, int times, Fault fault) {
        return arm(FaultRule.next(kind, times, fault));
    }

    /** Spoils every request of {@code kind} with {@code fault} until {@link #clear()}. */
    public FaultRule failAlways(RequestKind kind, Fault fault) {
        return arm(FaultRule.always(kind, fault));
    }

    /**
     * Spoils each request of {@code kind} ({@code null}: any kind) with the given probability, drawn
     * from a generator seeded with {@code seed}.
     */
    public FaultRule failRandomly(RequestKind kind, double probability, long seed, Fault fault) {
        return arm(FaultRule.randomly(kind, probability, seed, fault));
    }

    /**
     * Spoils every request that carries a header whose name starts with {@code headerPrefix}, as a
     * server does that rejects a header it does not implement.
     */
    public FaultRule failRequestsWithHeader(String headerPrefix, Fault fault) {
        return arm(FaultRule.withHeader(headerPrefix, fault));
    }

    /**
     * Spoils every request of {@code kind} that lacks a header whose name starts with {@code headerPrefix},
     * as a server does that requires the header.
     */
    public FaultRule failRequestsWithoutHeader(RequestKind kind, String headerPrefix, Fault fault) {
        return arm(FaultRule.withoutHeader(kind, headerPrefix, fault));
    }

    /** Disarms every rule. */
    public void clear() {
        rules.clear();
    }

    /** Every request received since start or the last {@link #clearRecorded()}, headers as the client sent them. */
    public List<ProxiedRequest> recorded() {
        return List.copyOf(recorded);
    }

    /** How many requests of {@code kind} were received since start or the last {@link #clearRecorded()}. */
    public long count(RequestKind kind) {
        return recorded.stream().filter(request -> request.kind() == kind).count();
    }

    public void clearRecorded() {
        recorded.clear();
    }

    /**
     * Removes headers whose name starts with {@code headerPrefix} from every request before it reaches
     * the server (they stay in {@link #recorded()}), for features the server does not implement. The
     * server must then not check signatures: these headers are signed.
     */
    public void stripHeaders(String headerPrefix) {
        strippedHeaderPrefixes.add(headerPrefix.toLowerCase(Locale.ROOT));
    }

    private FaultRule arm(FaultRule rule) {
        rules.add(rule);
        return rule;
    }

    @Override
    public void close() {
        try {
            relay.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            wireMock.stop();
        }
    }
}
