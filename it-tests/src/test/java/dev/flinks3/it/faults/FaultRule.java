package dev.flinks3.it.faults;

import dev.flinks3.testserver.RequestKind;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One armed fault of a {@link FaultInjectingProxy}: which requests it is for (a request kind, or any
 * request carrying a header), how many of them it takes (the next n, every one, or each with a fixed
 * probability from a seeded generator, so a run is repeatable), and how often it was applied.
 * Thread-safe.
 */
public final class FaultRule {

    private static final int UNLIMITED = -1;

    private final RequestKind kind;
    private final String headerPrefix;
    private final boolean headerMissing;
    private final Fault fault;
    private final AtomicInteger remaining;
    private final double probability;
    private final Random random;
    private final AtomicInteger applied = new AtomicInteger();

    private FaultRule(
            RequestKind kind,
            String headerPrefix,
            boolean headerMissing,
            Fault fault,
            int times,
            double probability,
            long seed) {
        this.kind = kind;
        this.headerPrefix = headerPrefix == null ? null : headerPrefix.toLowerCase(Locale.ROOT);
        this.headerMissing = headerMissing;
        this.fault = fault;
        this.remaining = new AtomicInteger(times);
        this.probability = probability;
        this.random = new Random(seed);
    }

    /** The next {@code times} requests of {@code kind}. */
    static FaultRule next(RequestKind kind, int times, Fault fault) {
        if (times < 1) {
            throw new IllegalArgumentException("times must be at least 1, was " + times);
        }
        return new FaultRule(kind, null, false, fault, times, 1, 0);
    }

    /** Every request of {@code kind}. */
    static FaultRule always(RequestKind kind, Fault fault) {
        return new FaultRule(kind, null, false, fault, UNLIMITED, 1, 0);
    }

    /** Each request of {@code kind} ({@code null}: of any kind) with {@code probability}, drawn from {@code seed}. */
    static FaultRule randomly(RequestKind kind, double probability, long seed, Fault fault) {
        if (!(probability > 0 && probability <= 1)) {
            throw new IllegalArgumentException("probability must be in (0, 1], was " + probability);
        }
        return new FaultRule(kind, null, false, fault, UNLIMITED, probability, seed);
    }

    /** Every request, of any kind, that carries a header whose name starts with {@code headerPrefix}. */
    static FaultRule withHeader(String headerPrefix, Fault fault) {
        return new FaultRule(null, headerPrefix, false, fault, UNLIMITED, 1, 0);
    }

    /**
     * Every request of {@code kind} that carries no header whose name starts with {@code headerPrefix},
     * as a server does that requires a header (for example {@code Content-MD5} on DeleteObjects).
     */
    static FaultRule withoutHeader(RequestKind kind, String headerPrefix, Fault fault) {
        return new FaultRule(kind, headerPrefix, true, fault, UNLIMITED, 1, 0);
    }

    /** The fault this rule applies. */
    public Fault fault() {
        return fault;
    }

    /** How many requests this rule has spoilt so far. */
    public int applied() {
        return applied.get();
    }

    /**
     * Decides whether this rule takes one request, and counts it if so.
     *
     * @param headerNames the request's header names in lower case
     */
    boolean take(RequestKind requestKind, Set<String> headerNames) {
        if (kind != null && kind != requestKind) {
            return false;
        }
        if (headerPrefix != null
                && headerNames.stream().anyMatch(name -> name.startsWith(headerPrefix)) == headerMissing) {
            return false;
        }
        if (probability < 1) {
            synchronized (random) {
                if (random.nextDouble() >= probability) {
                    return false;
                }
            }
        }
        if (remaining.get() != UNLIMITED && remaining.getAndUpdate(n -> n > 0 ? n - 1 : 0) == 0) {
            return false;
        }
        applied.incrementAndGet();
        return true;
    }

    @Override
    public String toString() {
        String target = (kind != null ? kind.operationName() : "any request")
                + (headerPrefix == null ? "" : (headerMissing ? " without " : " with ") + headerPrefix + "*");
        return fault + " for " + target;
    }
}
