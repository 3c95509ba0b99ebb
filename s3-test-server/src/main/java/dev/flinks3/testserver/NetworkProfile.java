package dev.flinks3.testserver;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * How the embedded server behaves as a network: the latency added once to every authenticated S3
 * request before it is served, and the rate every request and response body is paced to.
 *
 * <p>{@link #LAN} adds nothing. {@link #WAN} is what one cloud VM sees of S3 in its region, as
 * the benchmarks define it (docs/benchmarks/README.md): 20 ms per request and 50 MB/s per body (one HTTP/1.1
 * connection carries one request at a time, so this is a per-connection cap). {@link #RESCALE} is the
 * store of a published remote rescale benchmark: 40 ms added each way (80 ms once per request) and one
 * 1 Gbit/s link shared by all connections in each direction, so the bytes moved, not the number of
 * connections, decide a transfer's time. Immutable.
 */
public final class NetworkProfile {

    /** No added latency, no pacing: shows CPU efficiency and per-request overheads. */
    public static final NetworkProfile LAN = new NetworkProfile("lan", Duration.ZERO, 0);

    /** 20 ms added once per request, each body paced to 50 MB/s (50,000,000 bytes per second). */
    public static final NetworkProfile WAN = new NetworkProfile("wan", Duration.ofMillis(20), 50_000_000L);

    /**
     * 80 ms added once per request (40 ms each way, without the published benchmark's ±5 ms jitter, which
     * averages out over a restore's requests and would only add noise to ratios), and one 1 Gbit/s link
     * (125,000,000 bytes per second) shared by all connections: all response bodies together are paced to
     * it, and all request bodies together, as on a full-duplex link behind a traffic shaper at the store.
     */
    public static final NetworkProfile RESCALE = new NetworkProfile("rescale", Duration.ofMillis(80), 0, 125_000_000L);

    private final String name;
    private final Duration latency;
    private final long bytesPerSecond;
    private final long sharedBytesPerSecond;

    private NetworkProfile(String name, Duration latency, long bytesPerSecond) {
        this(name, latency, bytesPerSecond, 0);
    }

    private NetworkProfile(String name, Duration latency, long bytesPerSecond, long sharedBytesPerSecond) {
        this.name = name;
        this.latency = latency;
        this.bytesPerSecond = bytesPerSecond;
        this.sharedBytesPerSecond = sharedBytesPerSecond;
    }

    /**
     * A WAN-like profile with custom figures.
     *
     * @param latency added once to each authenticated request before it is served; zero or positive
     * @param bytesPerSecond the pace of each request and response body in bytes per second; positive
     * @throws IllegalArgumentException if the latency is negative or the rate is not positive
     */
    public static NetworkProfile wan(Duration latency, long bytesPerSecond) {
        Objects.requireNonNull(latency, "latency");
        if (latency.isNegative()) {
            throw new IllegalArgumentException("latency must be zero or positive, was " + latency);
        }
        if (bytesPerSecond <= 0) {
            throw new IllegalArgumentException("bytesPerSecond must be positive, was " + bytesPerSecond);
        }
        return new NetworkProfile(
                "wan(" + latency.toMillis() + "ms," + bytesPerSecond + "B/s)", latency, bytesPerSecond);
    }

    /**
     * The profile named {@code lan}, {@code wan} or {@code rescale} (case-insensitive), as given on command
     * lines.
     *
     * @throws IllegalArgumentException for any other name
     */
    public static NetworkProfile named(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "lan":
                return LAN;
            case "wan":
                return WAN;
            case "rescale":
                return RESCALE;
            default:
                throw new IllegalArgumentException(
                        "Unknown network profile '" + name + "': expected lan, wan or rescale");
        }
    }

    /** Latency added once to each authenticated request; {@link Duration#ZERO} for none. */
    public Duration latency() {
        return latency;
    }

    /** Pace of each body in bytes per second, or 0 when bodies are not paced. */
    public long bytesPerSecond() {
        return bytesPerSecond;
    }

    /**
     * Rate in bytes per second that all bodies of one direction share (all responses together, all requests
     * together), or 0 when there is no shared limit.
     */
    public long sharedBytesPerSecond() {
        return sharedBytesPerSecond;
    }

    /** True when this profile neither delays requests nor paces bodies. */
    public boolean isUnlimited() {
        return latency.isZero() && bytesPerSecond == 0 && sharedBytesPerSecond == 0;
    }

    @Override
    public String toString() {
        return name;
    }
}
