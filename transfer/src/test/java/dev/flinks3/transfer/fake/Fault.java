package dev.flinks3.transfer.fake;

import java.io.IOException;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A failure to inject into {@link InMemoryObjectClient}: which calls it hits, when in the call it
 * strikes and what is thrown. Built fluently and handed to {@link InMemoryObjectClient#inject(Fault)}:
 *
 * <pre>{@code
 * client.inject(Fault.on(Operation.UPLOAD_PART).atCall(3).failingWith(new IOException("boom")));
 * client.inject(Fault.on(Operation.COMPLETE_MULTIPART_UPLOAD).afterEffect().failingWith(...)); // lost response
 * client.inject(Fault.on(Operation.GET).atCall(1).afterBytes(1000).failingWith(...));          // reset mid-body
 * }</pre>
 *
 * <p>By default a fault strikes once (the first matching call); {@link #times(int)} and {@link #always()}
 * change that. Not thread-safe while being built; the client synchronises its use afterwards.
 */
public final class Fault {

    private final Operation operation;
    private Predicate<Call> matcher = call -> true;
    private boolean afterEffect;
    private long afterBytes = -1;
    private int remaining = 1;
    private Supplier<? extends Exception> error;

    private Fault(Operation operation) {
        this.operation = Objects.requireNonNull(operation, "operation");
    }

    /** A fault on calls of {@code operation}. */
    public static Fault on(Operation operation) {
        return new Fault(operation);
    }

    /** Strike only the {@code n}-th call (1-based) of the operation, counted since the client was created or reset. */
    public Fault atCall(int n) {
        return when(call -> call.callNumber() == n);
    }

    /** Strike only calls matching {@code predicate}. */
    public Fault when(Predicate<Call> predicate) {
        this.matcher = this.matcher.and(predicate);
        return this;
    }

    /**
     * Let the server-side effect happen first (the object is stored, the part kept, the upload
     * completed) and fail only the response: a "lost response" as a client sees it after a connection
     * drop.
     */
    public Fault afterEffect() {
        this.afterEffect = true;
        return this;
    }

    /** For GET: the body delivers {@code bytes} bytes, then its next read throws the error (connection reset). */
    public Fault afterBytes(long bytes) {
        if (operation != Operation.GET) {
            throw new IllegalStateException("afterBytes applies to GET only, not " + operation);
        }
        this.afterBytes = bytes;
        return this;
    }

    /** Strike the first {@code count} matching calls. */
    public Fault times(int count) {
        this.remaining = count;
        return this;
    }

    /** Strike every matching call. */
    public Fault always() {
        this.remaining = Integer.MAX_VALUE;
        return this;
    }

    /** The same exception instance for every strike. */
    public Fault failingWith(Exception exception) {
        Objects.requireNonNull(exception, "exception");
        return failingWith(() -> exception);
    }

    /** A fresh exception per strike. */
    public Fault failingWith(Supplier<? extends Exception> supplier) {
        this.error = Objects.requireNonNull(supplier, "supplier");
        return this;
    }

    Operation operation() {
        return operation;
    }

    boolean isAfterEffect() {
        return afterEffect;
    }

    long afterBytes() {
        return afterBytes;
    }

    /** Called under the client's lock: true (and one strike used) if this fault hits {@code call}. */
    boolean strikes(Call call) {
        if (remaining <= 0 || call.operation() != operation || !matcher.test(call)) {
            return false;
        }
        if (remaining != Integer.MAX_VALUE) {
            remaining--;
        }
        return true;
    }

    Exception newError() {
        if (error == null) {
            return new IOException("injected failure of " + operation);
        }
        return error.get();
    }
}
