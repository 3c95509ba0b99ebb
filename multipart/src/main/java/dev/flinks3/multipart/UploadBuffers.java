package dev.flinks3.multipart;

import java.util.HashMap;
import java.util.Map;

/**
 * The part buffers of a whole process: one {@link UploadBudget} that bounds the bytes held in part
 * buffers across every {@link UploadEngine} built on it (every scheme, every per-bucket
 * configuration), and the {@link PartBufferPool}s of idle buffers on that budget, one per base part
 * size in use. Engines of one process share one instance, so the limit ({@code
 * s3.upload.max-buffered-size}) holds once per process, not once per client configuration. Holds no
 * threads; thread-safe.
 */
public final class UploadBuffers {

    private final UploadBudget budget;
    private final Map<Integer, PartBufferPool> pools = new HashMap<>();

    /**
     * @param limitBytes the most bytes held in part buffers at once, at least 1
     * @throws IllegalArgumentException if {@code limitBytes} is below 1
     */
    public UploadBuffers(long limitBytes) {
        this.budget = new UploadBudget(limitBytes);
    }

    /** The process-wide bound on bytes held in part buffers. */
    public UploadBudget budget() {
        return budget;
    }

    /**
     * The pool of buffers of {@code basePartBytes} on this budget, created at the first call for that
     * size; a later call for the same size returns the same pool (its idle limit is the first call's).
     *
     * @param maxIdleBuffers how many idle buffers the pool keeps, 0 for none
     */
    synchronized PartBufferPool pool(int basePartBytes, int maxIdleBuffers) {
        return pools.computeIfAbsent(basePartBytes, size -> new PartBufferPool(budget, size, maxIdleBuffers));
    }
}
