package dev.flinks3.transfer.aws;

import java.time.Duration;

/**
 * The read timeout of the AWS CRT clients (the CRT HTTP client and the CRT-based S3 client): they
 * have none, and drop a connection whose throughput stays below a minimum for a number of whole
 * seconds instead. aws-c-http's monitor samples once a second and rejects fewer than two seconds
 * ("Http monitoring failure interval must be at least two"), so a shorter socket timeout is raised
 * to two seconds, and a fraction of a second is rounded up.
 */
public final class CrtThroughputMonitor {

    /** The shortest interval aws-c-http's connection monitor takes. */
    public static final Duration MIN_TIMEOUT = Duration.ofSeconds(2);

    private CrtThroughputMonitor() {}

    /**
     * The throughput monitor's timeout for a socket timeout.
     *
     * @param socketTimeout the configured longest wait for bytes on an open connection, positive
     * @return that wait in whole seconds, rounded up, at least {@link #MIN_TIMEOUT}
     */
    public static Duration timeout(Duration socketTimeout) {
        long seconds = socketTimeout.getSeconds() + (socketTimeout.getNano() > 0 ? 1 : 0);
        return Duration.ofSeconds(Math.max(MIN_TIMEOUT.getSeconds(), seconds));
    }
}
