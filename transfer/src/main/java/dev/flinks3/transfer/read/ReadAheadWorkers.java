package dev.flinks3.transfer.read;

import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * What the parallel read-ahead of all input streams of a process shares: the executor that runs the
 * ranged GETs and the budget that bounds the memory of their windows. Immutable.
 */
public final class ReadAheadWorkers {

    private final Executor executor;
    private final ReadAheadBudget budget;

    /**
     * @param executor runs the read-ahead GETs (each blocks a thread for one window's transfer); not owned
     * @param budget bounds the bytes all read-ahead windows hold together
     */
    public ReadAheadWorkers(Executor executor, ReadAheadBudget budget) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.budget = Objects.requireNonNull(budget, "budget");
    }

    Executor executor() {
        return executor;
    }

    /** The shared window budget. */
    public ReadAheadBudget budget() {
        return budget;
    }
}
