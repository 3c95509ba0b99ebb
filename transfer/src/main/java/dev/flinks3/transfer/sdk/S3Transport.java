package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.DefaultMemoryLimit;
import dev.flinks3.transfer.HttpProxy;
import dev.flinks3.transfer.Secret;
import dev.flinks3.transfer.aws.Closer;
import dev.flinks3.transfer.aws.HttpProxies;
import dev.flinks3.transfer.crt.CrtClients;
import dev.flinks3.transfer.read.ReadAheadBudget;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.async.SdkAsyncHttpClient;
import software.amazon.awssdk.utils.ThreadFactoryBuilder;

/**
 * What every S3 client of a process shares: the asynchronous HTTP client (CRT or Netty) with its
 * connection pool and event loops, the blocking HTTP client with its pool (for the bodies a reader
 * streams, see {@link BlockingHttpClientFactory}), the executor that completes the SDK's futures off the event loops,
 * the scheduler of attempt timeouts and retry delays, the budget of read-ahead windows ({@link
 * ReadAheadBudget}), and with {@code s3.client: crt} the one CRT-based S3 client ({@link CrtClients}). Each {@link S3ClientOwner} built on it is a light client (credentials, region,
 * endpoint, SSE, bucket options, retry policy) on this transport, as the SDK allows many clients on one
 * {@code httpClient(...)}, which it then does not close.
 *
 * <p>Clients whose connection settings are equal ({@link #connectionKey}: HTTP client type, connection
 * maximum, timeouts, trusted CAs, proxy) share one pair of HTTP clients; a per-bucket configuration that
 * changes one of them gets a second pair, on the same executors. HTTP clients are reference-counted by
 * the owners using them and closed by the last one. {@link #close()} closes what is left and the
 * executors. Thread-safe.
 */
public final class S3Transport implements Closeable {

    private static final int SCHEDULER_THREADS = 2;

    /** The JVM's system properties the HTTP clients may read when they are built. */
    private static final List<String> JVM_PROPERTIES = List.of(
            "javax.net.ssl.trustStore",
            "javax.net.ssl.trustStoreType",
            "javax.net.ssl.trustStorePassword",
            "https.proxyHost",
            "https.proxyPort",
            "https.proxyUser",
            "https.proxyPassword",
            "http.proxyHost",
            "http.proxyPort",
            "http.proxyUser",
            "http.proxyPassword",
            "http.nonProxyHosts");

    private static final long EXECUTOR_SHUTDOWN_WAIT_MS = 5_000;

    private final Closer closer = new Closer();
    private final ThreadPoolExecutor completion;
    private final ScheduledThreadPoolExecutor scheduler;
    private final ReadAheadBudget readAheadBudget;
    private final CrtClients crtClients;
    private final SpreadingDnsResolver.HostAddresses hostAddresses;
    private final Map<List<Object>, SharedHttpClient> httpClients = new HashMap<>();
    private boolean closed;

    /** Starts the executors (threads start on demand) with the read-ahead budget of this JVM's heap. */
    public S3Transport() {
        this(new ReadAheadBudget(DefaultMemoryLimit.ofThisJvm()));
    }

    /** As {@link #S3Transport()} with the given read-ahead budget. */
    public S3Transport(ReadAheadBudget readAheadBudget) {
        this(readAheadBudget, SpreadingDnsResolver.HostAddresses.SYSTEM);
    }

    /** As {@link #S3Transport(ReadAheadBudget)}, with host names looked up by {@code hostAddresses} (tests). */
    S3Transport(ReadAheadBudget readAheadBudget, SpreadingDnsResolver.HostAddresses hostAddresses) {
        this.hostAddresses = hostAddresses;
        this.readAheadBudget = readAheadBudget;
        this.completion = closer.register(new Shutdown<>(newCompletionExecutor())).executor;
        this.scheduler = closer.register(new Shutdown<>(newScheduler())).executor;
        // Closed before the executors it completes futures on.
        this.crtClients = closer.register(new CrtClients(completion));
    }

    /**
     * The budget of read-ahead windows that all input streams of this process share ({@link
     * DefaultMemoryLimit}); the windows' ranged GETs complete on this transport's completion executor.
     */
    public ReadAheadBudget readAheadBudget() {
        return readAheadBudget;
    }

    /**
     * The process's CRT-based S3 client ({@code s3.client: crt}): one native client for every configuration
     * on this transport, see {@link CrtClients}.
     */
    public CrtClients crtClients() {
        return crtClients;
    }

    /** The pairs of HTTP clients open now (one per distinct {@link #connectionKey}). */
    public synchronized int httpClients() {
        return httpClients.size();
    }

    ThreadPoolExecutor completion() {
        return completion;
    }

    ScheduledThreadPoolExecutor scheduler() {
        return scheduler;
    }

    /**
     * The HTTP clients for {@code settings}' connection settings, shared with every owner of equal ones;
     * a lease is registered with the caller's {@code leases}, and the last owner to close its lease
     * closes the clients.
     *
     * @throws IllegalStateException if this transport is closed
     * @throws IllegalArgumentException if the configured CA file cannot be read
     */
    synchronized HttpClients httpClients(ClientSettings settings, HttpProxies proxies, Closer leases) {
        if (closed) {
            throw new IllegalStateException("the S3 transport is closed");
        }
        List<Object> key = connectionKey(settings, proxies);
        SharedHttpClient shared = httpClients.get(key);
        if (shared == null) {
            Closer own = new Closer();
            try {
                shared = new SharedHttpClient(
                        key,
                        new HttpClients(
                                AsyncHttpClientFactory.create(settings, proxies, own),
                                BlockingHttpClientFactory.create(settings, proxies, own, hostAddresses),
                                own.register(new BlockingReadsShutdown(
                                                newBlockingReadExecutor(settings.maxConnections())))
                                        .executor),
                        own);
            } catch (RuntimeException e) {
                throw own.closeAfterFailure(e);
            } catch (Error e) {
                throw own.closeAfterFailure(e);
            }
            httpClients.put(key, shared);
        }
        shared.references++;
        leases.register(shared::release);
        return shared.clients;
    }

    /**
     * What decides which HTTP client a client gets: the HTTP client type, connection maximum,
     * connection, socket, idle and acquisition timeouts, trusted CA file, proxy route, and the JVM's
     * trust store and proxy properties as they are now ({@link #JVM_PROPERTIES}), which the HTTP
     * clients may read themselves when they are built (so a client built while they were set is not
     * handed to a configuration made after they changed). Passwords are held as {@link Secret}s.
     */
    static List<Object> connectionKey(ClientSettings settings, HttpProxies proxies) {
        HttpProxy proxy = proxies.proxy().orElse(null);
        List<Object> key = new ArrayList<>(Arrays.asList(
                settings.httpClient(),
                settings.maxConnections(),
                settings.connectionTimeout(),
                settings.socketTimeout(),
                settings.connectionMaxIdleTime(),
                settings.apiCallAttemptTimeout(),
                settings.sslCaFile(),
                proxy,
                proxies.nonProxyHosts()));
        key.addAll(jvmConnectionProperties());
        return key;
    }

    /**
     * The JVM's trust store and proxy properties as they are now ({@link #JVM_PROPERTIES}), passwords
     * as {@link Secret}s: part of what tells apart clients built at different times, since the HTTP
     * clients may read them when they are built. Absent ones are {@code null}.
     */
    public static List<Object> jvmConnectionProperties() {
        List<Object> values = new ArrayList<>(JVM_PROPERTIES.size());
        for (String property : JVM_PROPERTIES) {
            String value = System.getProperty(property);
            values.add(property.endsWith("Password") ? Secret.ofNullable(value) : value);
        }
        return values;
    }

    /**
     * Closes the HTTP clients still open and the executors (waiting up to {@value
     * #EXECUTOR_SHUTDOWN_WAIT_MS} ms for running callbacks). Idempotent.
     *
     * @throws IOException the first failure to close, later ones suppressed
     */
    @Override
    public void close() throws IOException {
        Closer clients = new Closer();
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            for (SharedHttpClient shared : httpClients.values()) {
                clients.register(shared.closer);
            }
            httpClients.clear();
        }
        clients.register(closer);
        clients.close();
    }

    @Override
    public synchronized String toString() {
        return "S3Transport{httpClients=" + httpClients.size() + ", readAhead=" + readAheadBudget + "}";
    }

    /**
     * Completes the SDK's futures off the event loops. Unbounded queue on purpose: a bounded one
     * would make the SDK run callbacks on the event-loop thread when it is full.
     */
    private static ThreadPoolExecutor newCompletionExecutor() {
        int threads = Math.max(8, 2 * Runtime.getRuntime().availableProcessors());
        ThreadPoolExecutor executor = new ThreadPoolExecutor(
                threads,
                threads,
                60,
                TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(),
                new ThreadFactoryBuilder()
                        .threadNamePrefix("flinks3-s3-completion")
                        .daemonThreads(true)
                        .build());
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    /**
     * Runs blocking GETs for callers that do not wait for them (read-ahead windows), one thread per GET in flight:
     * at most as many as the blocking HTTP client's connections, since more would only wait for one. A GET goes to
     * an idle thread where one waits ({@link IdleFirstExecutor}): threads start only for GETs running at once, and
     * stop after a minute idle, so a process that restores now and then does not gather a thread per GET it ever
     * made, up to the connection maximum.
     */
    private static ThreadPoolExecutor newBlockingReadExecutor(int maxConnections) {
        return IdleFirstExecutor.create(
                maxConnections,
                60,
                new ThreadFactoryBuilder()
                        .threadNamePrefix("flinks3-s3-blocking-read")
                        .daemonThreads(true)
                        .build());
    }

    /** Runs the SDK's attempt timeouts and retry delays; every attempt schedules (and mostly cancels) a task. */
    private static ScheduledThreadPoolExecutor newScheduler() {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(
                SCHEDULER_THREADS,
                new ThreadFactoryBuilder()
                        .threadNamePrefix("flinks3-s3-scheduler")
                        .daemonThreads(true)
                        .build());
        scheduler.setRemoveOnCancelPolicy(true);
        return scheduler;
    }

    /**
     * The asynchronous and the blocking HTTP client of one set of connection settings, and the threads that run
     * blocking GETs for callers that do not wait for them.
     */
    static final class HttpClients {
        private final SdkAsyncHttpClient async;
        private final SdkHttpClient blocking;
        private final ExecutorService blockingReads;

        HttpClients(SdkAsyncHttpClient async, SdkHttpClient blocking, ExecutorService blockingReads) {
            this.async = async;
            this.blocking = blocking;
            this.blockingReads = blockingReads;
        }

        /** Threads for blocking GETs of the read-ahead, one per GET in flight, as many as the connections. */
        ExecutorService blockingReads() {
            return blockingReads;
        }

        /** The asynchronous client: every request but the streamed GETs. */
        SdkAsyncHttpClient async() {
            return async;
        }

        /** The blocking client: ranged GETs whose body a reader streams. */
        SdkHttpClient blocking() {
            return blocking;
        }
    }

    /** One pair of HTTP clients and what they own (event loops, trust context), with the owners using them. */
    private final class SharedHttpClient {
        final List<Object> key;
        final HttpClients clients;
        final Closer closer;
        int references;

        SharedHttpClient(List<Object> key, HttpClients clients, Closer closer) {
            this.key = key;
            this.clients = clients;
            this.closer = closer;
        }

        void release() throws IOException {
            synchronized (S3Transport.this) {
                if (--references > 0 || httpClients.get(key) != this) {
                    return;
                }
                httpClients.remove(key);
            }
            closer.close();
        }
    }

    /** Shuts an executor down on close, waiting briefly for running callbacks. */
    /**
     * A task of the blocking-read threads that has a caller waiting on it: told when the threads stop before it
     * ran, so the caller gets a failure instead of waiting for ever.
     */
    interface QueuedRead extends Runnable {
        /** The threads stopped before this task ran; it never will. */
        void abandon();
    }

    /** Stops the blocking-read threads as {@link Shutdown} does, then fails the reads still queued. */
    private static final class BlockingReadsShutdown implements AutoCloseable {
        final ThreadPoolExecutor executor;

        BlockingReadsShutdown(ThreadPoolExecutor executor) {
            this.executor = executor;
        }

        @Override
        public void close() {
            executor.shutdown();
            try {
                if (executor.awaitTermination(EXECUTOR_SHUTDOWN_WAIT_MS, TimeUnit.MILLISECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            for (Runnable dropped : executor.shutdownNow()) {
                if (dropped instanceof QueuedRead) {
                    ((QueuedRead) dropped).abandon();
                }
            }
        }
    }

    private static final class Shutdown<E extends ExecutorService> implements AutoCloseable {
        final E executor;

        Shutdown(E executor) {
            this.executor = executor;
        }

        @Override
        public void close() {
            executor.shutdown();
            try {
                if (!executor.awaitTermination(EXECUTOR_SHUTDOWN_WAIT_MS, TimeUnit.MILLISECONDS)) {
                    executor.shutdownNow();
                }
            } catch (InterruptedException e) {
                // interrupted while waiting: stop the executor now and keep the caller's interrupt
                executor.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
    }
}
