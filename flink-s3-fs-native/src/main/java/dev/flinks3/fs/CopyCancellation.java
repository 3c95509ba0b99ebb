package dev.flinks3.fs;

import java.io.Closeable;
import java.io.IOException;
import org.apache.flink.core.fs.ICloseableRegistry;

/**
 * Cancels a copy of {@code PathsCopyingFileSystem.copyFiles} when Flink closes the copy's {@link ICloseableRegistry}
 * (the restoring or snapshotting task was cancelled): it interrupts the thread that waits for the copy, and the copy
 * then cancels what is running and cleans up. Registered for the length of one copy; use with try-with-resources.
 */
final class CopyCancellation implements Closeable {

    private final Thread copier;
    private final ICloseableRegistry registry;
    private boolean finished;

    private CopyCancellation(Thread copier, ICloseableRegistry registry) {
        this.copier = copier;
        this.registry = registry;
    }

    /**
     * Registers a cancellation of the calling thread's copy in {@code registry}.
     *
     * @throws IOException if the registry is closed already (Flink's registries then close what is registered and
     *     throw): the copy is cancelled before it starts
     */
    static CopyCancellation register(ICloseableRegistry registry) throws IOException {
        CopyCancellation cancellation = new CopyCancellation(Thread.currentThread(), registry);
        registry.registerCloseable(cancellation);
        return cancellation;
    }

    /** Interrupts the copying thread, unless the copy has finished. Called by the registry. */
    @Override
    public void close() {
        synchronized (this) {
            if (!finished) {
                copier.interrupt();
            }
        }
    }

    /** Ends the copy's registration: a later close of the registry interrupts nothing. */
    void finish() {
        synchronized (this) {
            finished = true;
        }
        registry.unregisterCloseable(this);
    }
}
