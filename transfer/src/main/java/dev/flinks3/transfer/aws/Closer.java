package dev.flinks3.transfer.aws;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Closes what was registered in reverse order of registration; every resource is closed even when
 * an earlier one fails, the first failure is thrown and later ones are added as suppressed. Not
 * thread-safe: used while building and closing one owner.
 */
public final class Closer implements Closeable {

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();

    /** Registers a resource to close; returns it for chaining. {@code null} is ignored. */
    public <T extends AutoCloseable> T register(T resource) {
        if (resource != null) {
            resources.push(resource);
        }
        return resource;
    }

    /**
     * Closes all registered resources, the last registered first. Idempotent.
     *
     * @throws IOException the first failure (wrapped if it was not an {@code IOException}), later
     *     failures suppressed
     */
    @Override
    public void close() throws IOException {
        Throwable first = null;
        while (!resources.isEmpty()) {
            try {
                resources.pop().close();
            } catch (Exception | Error e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first instanceof IOException) {
            throw (IOException) first;
        }
        if (first instanceof Error) {
            throw (Error) first;
        }
        if (first != null) {
            throw new IOException("closing S3 resources failed", first);
        }
    }

    /**
     * Closes everything after a failed construction, adding close failures to {@code cause} as
     * suppressed, and returns {@code cause} for rethrowing.
     */
    public <E extends Throwable> E closeAfterFailure(E cause) {
        try {
            close();
        } catch (IOException | RuntimeException | Error e) {
            cause.addSuppressed(e);
        }
        return cause;
    }
}
