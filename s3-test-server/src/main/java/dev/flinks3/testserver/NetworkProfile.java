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
 * connection carries one request at a time, so this is a per-connection cap). Immutable.
 */
public final class NetworkProfile {

    /** No added latency, no pacing: shows CPU efficiency and per-request overheads. */
    public static final NetworkProfile LAN = new NetworkProfile("lan", Duration.ZERO, 0);

    /** 20 ms added once per request, each body paced to 50 MB/s (50,000,000 bytes per second). */
    public static final NetworkProfile WAN = new NetworkProfile("wan", Duration.ofMillis(20), 50_000_000L);

    private final String name;
    private final Duration latency;
    private final long bytesPerSecond;

    private NetworkProfile(String name, Duration latency, long bytesPerSecond) {
        this.name = name;
        this.latency = latency;
        this.bytesPerSecond = bytesPerSecond;
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
     * The profile named {@code lan} or {@code wan} (case-insensitive), as given on command lines.
     *
     * @throws IllegalArgumentException for any other name
     */
    public static NetworkProfile named(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "lan":
                return LAN;
            case "wan":
                return WAN;
            default:
                throw new IllegalArgumentException("Unknown network profile '" + name + "': expected lan or wan");
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

    /** True when this profile neither delays requests nor paces bodies. */
    public boolean isUnlimited() {
        return latency.isZero() && bytesPerSecond == 0;
    }

    @Override
    public String toString() {
        return name;
    }
}
