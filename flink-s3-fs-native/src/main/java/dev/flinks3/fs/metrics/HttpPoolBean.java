package dev.flinks3.fs.metrics;

import dev.flinks3.transfer.sdk.HttpPoolMetrics;
import java.util.function.Supplier;

/** The {@link HttpPoolMBean} of one pool's last readings. Thread-safe. */
final class HttpPoolBean implements HttpPoolMBean {

    private final Supplier<HttpPoolMetrics.Pool> pool;

    HttpPoolBean(Supplier<HttpPoolMetrics.Pool> pool) {
        this.pool = pool;
    }

    @Override
    public int getLeasedConnections() {
        return pool.get().leased();
    }

    @Override
    public int getIdleConnections() {
        return pool.get().idle();
    }

    @Override
    public int getMaxConnections() {
        return pool.get().max();
    }

    @Override
    public int getPendingAcquires() {
        return pool.get().pending();
    }
}
