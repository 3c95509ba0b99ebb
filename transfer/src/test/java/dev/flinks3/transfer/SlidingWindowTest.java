package dev.flinks3.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SlidingWindowTest {

    private final ExecutorService caller = Executors.newSingleThreadExecutor();
    private final ConcurrentHashMap<Integer, CompletableFuture<Integer>> tasks = new ConcurrentHashMap<>();

    @AfterEach
    void stop() {
        caller.shutdownNow();
    }

    @Test
    void startsTheNextTaskAsSoonAsAnyFinishes() throws Exception {
        Future<List<Integer>> run = caller.submit(() -> SlidingWindow.run(items(5), 2, this::pending));
        awaitStarted(0, 1);
        // The second task finishing frees a slot while the first (the batch's slowest) still runs.
        tasks.get(1).complete(10);
        awaitStarted(0, 1, 2);
        tasks.get(2).complete(20);
        awaitStarted(0, 1, 2, 3);
        assertThat(tasks).doesNotContainKey(4);
        tasks.get(3).complete(30);
        awaitStarted(0, 1, 2, 3, 4);
        tasks.get(4).complete(40);
        tasks.get(0).complete(0);
        assertThat(run.get(10, TimeUnit.SECONDS)).containsExactly(0, 10, 20, 30, 40);
    }

    @Test
    void neverHasMoreThanTheLimitInFlight() throws Exception {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        ExecutorService workers = Executors.newFixedThreadPool(8);
        try {
            List<Integer> results = SlidingWindow.run(items(200), 3, item -> {
                most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                return CompletableFuture.supplyAsync(
                        () -> {
                            inFlight.decrementAndGet();
                            return item;
                        },
                        workers);
            });
            assertThat(results).isEqualTo(items(200));
            assertThat(most.get()).isBetween(1, 3);
        } finally {
            workers.shutdownNow();
        }
    }

    @Test
    void firstFailureWinsStopsStartsAndCancelsTheRest() throws Exception {
        Future<List<Integer>> run = caller.submit(() -> SlidingWindow.run(items(10), 3, this::pending));
        awaitStarted(0, 1, 2);
        IOException first = new IOException("first");
        tasks.get(1).completeExceptionally(first);
        assertThatThrownBy(() -> run.get(10, TimeUnit.SECONDS)).hasCause(first);
        assertThat(tasks.get(0)).isCancelled();
        assertThat(tasks.get(2)).isCancelled();
        assertThat(tasks.keySet()).containsOnly(0, 1, 2);
    }

    @Test
    void laterFailuresAreSuppressed() {
        IOException first = new IOException("first");
        IOException second = new IOException("second");
        // Task 0 still runs when task 1 fails; cancelling it makes it fail with its own error.
        CompletableFuture<Integer> failsWhenCancelled = new CompletableFuture<>() {
            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                return completeExceptionally(second);
            }
        };
        assertThatThrownBy(() -> SlidingWindow.run(
                        List.of(0, 1),
                        2,
                        item -> item == 0 ? failsWhenCancelled : CompletableFuture.<Integer>failedFuture(first)))
                .isSameAs(first)
                .satisfies(e -> assertThat(e.getSuppressed()).containsExactly(second));
    }

    @Test
    void emptyInputDoesNothing() throws IOException {
        assertThat(SlidingWindow.run(List.of(), 4, item -> CompletableFuture.completedFuture(item)))
                .isEmpty();
    }

    private CompletableFuture<Integer> pending(int item) {
        CompletableFuture<Integer> task = new CompletableFuture<>();
        tasks.put(item, task);
        return task;
    }

    private void awaitStarted(Integer... items) {
        Awaitility.await()
                .atMost(10, TimeUnit.SECONDS)
                .until(() -> tasks.keySet().containsAll(List.of(items)));
    }

    private static List<Integer> items(int count) {
        return IntStream.range(0, count).boxed().collect(Collectors.toList());
    }
}
