package dev.flinks3.transfer.fake;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * Holds the calls of one operation of {@link InMemoryObjectClient} while closed, so a test can watch
 * how many are outstanding at once (and that a writer blocks). A held call has been counted and its
 * future is returned to the caller incomplete; it runs when the gate opens. Thread-safe.
 */
public final class Gate {

    private final Executor runner;
    private final List<Runnable> held = new ArrayList<>();
    private boolean closed;

    Gate(Executor runner) {
        this.runner = runner;
    }

    /** From now on, hold calls instead of running them. */
    public synchronized void close() {
        closed = true;
    }

    /** Run every held call (on the client's executor, or on this thread if it has none) and let later calls pass. */
    public void open() {
        List<Runnable> released;
        synchronized (this) {
            closed = false;
            released = new ArrayList<>(held);
            held.clear();
        }
        released.forEach(runner::execute);
    }

    /** Run the oldest held call, if any, and keep the gate closed. */
    public void releaseOne() {
        Runnable next;
        synchronized (this) {
            if (held.isEmpty()) {
                return;
            }
            next = held.remove(0);
        }
        runner.execute(next);
    }

    /** Number of calls waiting at the gate. */
    public synchronized int held() {
        return held.size();
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    /** Holds {@code work} if closed and returns true; returns false if the caller should run it. */
    synchronized boolean hold(Runnable work) {
        if (!closed) {
            return false;
        }
        held.add(work);
        return true;
    }
}
