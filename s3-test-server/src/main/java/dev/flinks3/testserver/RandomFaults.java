package dev.flinks3.testserver;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Chooses, request by request, which fault of a {@link FaultProfile} to inject, and counts the
 * choices. One draw per request from a seeded {@link Random}, so the same request order gives the
 * same faults. Thread-safe.
 */
final class RandomFaults {

    /** What to do with one request. */
    enum Fault {
        NONE,
        INTERNAL_ERROR,
        SLOW_DOWN,
        RESET,
        MID_BODY_RESET,
        SLOW_ANSWER
    }

    private final FaultProfile profile;
    private final Random random;
    private final AtomicLong internalErrors = new AtomicLong();
    private final AtomicLong slowDowns = new AtomicLong();
    private final AtomicLong resets = new AtomicLong();
    private final AtomicLong midBodyResets = new AtomicLong();
    private final AtomicLong slowAnswers = new AtomicLong();
    /** When each held-back answer began to wait, epoch ms; the first {@link #KEPT_SLOW_ANSWER_TIMES} only. */
    private final List<Long> slowAnswerTimes = new ArrayList<>();

    /** How many held-back answers' times are kept: a soak of days at the rates used stays well below. */
    static final int KEPT_SLOW_ANSWER_TIMES = 100_000;

    RandomFaults(FaultProfile profile) {
        this.profile = profile;
        this.random = new Random(profile.seed());
    }

    /** The fault for the next request; counted as injected (a mid-body reset only once its body is cut). */
    Fault next() {
        double draw;
        synchronized (random) {
            draw = random.nextDouble();
        }
        Fault fault = choose(draw);
        switch (fault) {
            case INTERNAL_ERROR -> internalErrors.incrementAndGet();
            case SLOW_DOWN -> slowDowns.incrementAndGet();
            case RESET -> resets.incrementAndGet();
            case SLOW_ANSWER -> {
                slowAnswers.incrementAndGet();
                synchronized (slowAnswerTimes) {
                    if (slowAnswerTimes.size() < KEPT_SLOW_ANSWER_TIMES) {
                        slowAnswerTimes.add(System.currentTimeMillis());
                    }
                }
            }
            default -> {}
        }
        return fault;
    }

    /**
     * Splits [0, 1): resets first, then 500 and 503 in equal halves of the error rate, then mid-body resets,
     * then slow answers, the rest served (so a profile without the last two draws as before they existed).
     */
    private Fault choose(double draw) {
        if (draw < profile.resetRate()) {
            return Fault.RESET;
        }
        double error = draw - profile.resetRate();
        if (error < profile.errorRate() / 2) {
            return Fault.INTERNAL_ERROR;
        }
        if (error < profile.errorRate()) {
            return Fault.SLOW_DOWN;
        }
        double rest = error - profile.errorRate();
        if (rest < profile.midBodyResetRate()) {
            return Fault.MID_BODY_RESET;
        }
        return rest - profile.midBodyResetRate() < profile.slowRate() ? Fault.SLOW_ANSWER : Fault.NONE;
    }

    /** Counts a mid-body reset once the body really was cut (a request without a body is served instead). */
    void countMidBodyReset() {
        midBodyResets.incrementAndGet();
    }

    /** When each held-back answer so far began to wait, epoch ms, in order (the first 100,000). */
    List<Long> slowAnswerTimes() {
        synchronized (slowAnswerTimes) {
            return List.copyOf(slowAnswerTimes);
        }
    }

    FaultProfile profile() {
        return profile;
    }

    InjectedFaults counts() {
        return new InjectedFaults(
                internalErrors.get(), slowDowns.get(), resets.get(), midBodyResets.get(), slowAnswers.get());
    }
}
