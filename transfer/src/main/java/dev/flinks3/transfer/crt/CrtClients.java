package dev.flinks3.transfer.crt;

import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.aws.Closer;
import dev.flinks3.transfer.aws.HttpProxies;
import dev.flinks3.transfer.options.S3Options;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.transfer.s3.S3TransferManager;

/**
 * The CRT-based S3 clients of a process ({@code s3.client: crt}) with their Transfer Managers: one native
 * aws-c-s3 client, so one native memory limit and one cap of connections, for every configuration whose
 * client-level settings are equal, whatever else differs. Each configuration leases a view ({@link Lease})
 * that signs its requests with the configuration's own credentials (the client takes credentials per
 * request); encryption, checksum algorithms and the other per-request options are each request's anyway.
 *
 * <p>What the native client fixes when it is built is not per request: the settings of {@link
 * CrtClientSettings} (endpoint, region, path style, connection cap, part size, native memory limit, retries,
 * timeouts, proxy). A configuration with other values of these gets a native client of its own, with its own
 * limit and cap (aws-c-s3 can neither share nor lower them once built), and a warning naming the keys. In a
 * Flink process every factory has the same configuration, and a bucket configuration that would need a
 * second client is refused before it gets here ({@link #differences}); a second one comes only from
 * configurations given to factories by hand (tests, embedders). A client is closed with its last lease.
 *
 * <p>Thread-safe.
 */
public final class CrtClients implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(CrtClients.class);

    private final Executor completion;
    /** Guarded by this. */
    private final Map<CrtClientSettings, Shared> running = new HashMap<>();
    /** Guarded by this. */
    private boolean closed;

    /** @param completion completes the client's futures, off the CRT's event loops; not owned */
    public CrtClients(Executor completion) {
        this.completion = completion;
    }

    /**
     * A view on the process's CRT-based S3 client for one configuration's client-level settings, building the
     * client on the first lease. Each lease is closed once.
     *
     * @param credentials signs every request of the view; not owned
     * @throws IllegalArgumentException if a setting cannot be applied (see {@link CrtS3Client#build})
     * @throws IllegalStateException if this is closed, or the CRT's native library does not load
     */
    public synchronized Lease lease(
            S3Settings settings, Region region, HttpProxies proxies, AwsCredentialsProvider credentials) {
        if (closed) {
            throw new IllegalStateException("the S3 transport is closed");
        }
        CrtClientSettings wanted = CrtClientSettings.of(settings, region, proxies);
        Shared shared = running.get(wanted);
        if (shared == null) {
            if (!running.isEmpty()) {
                LOG.warn(
                        "A second CRT-based S3 client (" + S3Options.CLIENT.key()
                                + ": crt) is built in this process, with a native memory limit and a cap of connections of its own, for a configuration that differs from"
                                + " the one running in {}",
                        String.join(", ", running.keySet().iterator().next().differences(wanted)));
            }
            shared = new Shared(wanted, settings, region, proxies, completion);
            running.put(wanted, shared);
        }
        shared.references++;
        return new Lease(shared, credentials);
    }

    /**
     * The client-level keys in which {@code bucket} differs from {@code global}, each as {@code key (global value,
     * not bucket value)}: empty if one CRT-based S3 client serves both. Passwords show as {@code ******}.
     */
    public static List<String> differences(S3Settings global, S3Settings bucket) {
        return CrtClientSettings.configured(global).differences(CrtClientSettings.configured(bucket));
    }

    /** The native CRT-based S3 clients open now. */
    public synchronized int nativeClients() {
        return running.size();
    }

    /** The native memory limits of the clients open now together, in bytes. */
    public synchronized long nativeMemoryLimitBytes() {
        return running.keySet().stream()
                .mapToLong(CrtClientSettings::nativeMemoryLimitBytes)
                .sum();
    }

    /** The connection caps of the clients open now together. */
    public synchronized int maxConnections() {
        return running.keySet().stream()
                .mapToInt(CrtClientSettings::maxConnections)
                .sum();
    }

    /**
     * Closes the clients still open (leases not yet closed fail from then on). Idempotent.
     *
     * @throws IOException if closing fails
     */
    @Override
    public void close() throws IOException {
        List<Shared> open;
        synchronized (this) {
            closed = true;
            open = new ArrayList<>(running.values());
            running.clear();
        }
        Closer closer = new Closer();
        open.forEach(shared -> closer.register(shared.closer));
        closer.close();
    }

    private synchronized void release(Shared shared) throws IOException {
        if (--shared.references > 0 || running.get(shared.settings) != shared) {
            return;
        }
        running.remove(shared.settings);
        shared.closer.close();
    }

    /** One view on the process's CRT-based S3 client: its requests carry the configuration's credentials. */
    public final class Lease implements Closeable {
        private final Shared shared;
        private final S3AsyncClient client;
        private final S3TransferManager transferManager;
        private boolean released;

        private Lease(Shared shared, AwsCredentialsProvider credentials) {
            this.shared = shared;
            this.client = new CredentialedS3Client(shared.client, credentials);
            this.transferManager = new CredentialedTransferManager(shared.transferManager, credentials);
        }

        /** The CRT-based S3 client, signing with this lease's credentials; closing it does nothing. */
        public S3AsyncClient client() {
            return client;
        }

        /** The Transfer Manager on it, signing with this lease's credentials; closing it does nothing. */
        public S3TransferManager transferManager() {
            return transferManager;
        }

        /** Gives the lease back; the last one closes the client. Idempotent. */
        @Override
        public void close() throws IOException {
            synchronized (CrtClients.this) {
                if (released) {
                    return;
                }
                released = true;
            }
            release(shared);
        }
    }

    /** The native client, its Transfer Manager and the leases on them. */
    private static final class Shared {
        final CrtClientSettings settings;
        final Closer closer = new Closer();
        final S3AsyncClient client;
        final S3TransferManager transferManager;
        int references;

        Shared(CrtClientSettings settings, S3Settings s3, Region region, HttpProxies proxies, Executor completion) {
            this.settings = settings;
            try {
                // Every request carries its configuration's credentials; one without would go unsigned and fail.
                this.client = closer.register(
                        CrtS3Client.build(s3, AnonymousCredentialsProvider.create(), region, proxies, completion));
                // Closed before the client; it does not close a client it was given.
                this.transferManager = closer.register(S3TransferManager.builder()
                        .s3Client(client)
                        .executor(completion)
                        .build());
            } catch (RuntimeException e) {
                throw closer.closeAfterFailure(e);
            } catch (Error e) {
                throw closer.closeAfterFailure(e);
            }
        }
    }
}
