package dev.flinks3.fs.metrics;

/**
 * One HTTP connection pool the requests of an S3 client owner go through, as a platform MBean named {@code
 * dev.flinks3:type=HttpPool,scheme=<s3|s3a>,endpoint=<host_port>,pool=<async|blocking>} (see {@link
 * MetricsBeans}): {@code async} is the asynchronous HTTP client's (every request but the streamed GETs),
 * {@code blocking} the blocking client's (streamed GETs). Every attribute is a gauge, as the HTTP client
 * reported it with the owner's most recent request through that pool (the pools expose nothing between
 * requests), 0 before the first.
 */
public interface HttpPoolMBean {

    /** Connections leased to requests (in use). */
    int getLeasedConnections();

    /** Connections open and idle, ready for a request. */
    int getIdleConnections();

    /** The most connections the pool opens ({@code s3.connection.max}). */
    int getMaxConnections();

    /** Requests waiting for a connection. */
    int getPendingAcquires();
}
