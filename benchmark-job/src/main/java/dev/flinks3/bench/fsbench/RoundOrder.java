package dev.flinks3.bench.fsbench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The order contenders run in each round: as given in odd rounds (A B C D), reversed in even rounds
 * (D C B A), so no contender always runs first on a cold page cache or last on a warm one.
 */
public final class RoundOrder {

    private RoundOrder() {}

    /**
     * The contenders in the order of one round.
     *
     * @param contenders the contenders as given on the command line
     * @param round the round, 1-based
     * @throws IllegalArgumentException if {@code round} is below 1
     */
    public static <T> List<T> of(List<T> contenders, int round) {
        if (round < 1) {
            throw new IllegalArgumentException("rounds are numbered from 1, was " + round);
        }
        List<T> order = new ArrayList<>(contenders);
        if (round % 2 == 0) {
            Collections.reverse(order);
        }
        return List.copyOf(order);
    }
}
