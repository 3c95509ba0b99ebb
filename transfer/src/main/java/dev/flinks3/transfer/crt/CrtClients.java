package dev.flinks3.transfer.crt;

import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.aws.Closer;
import dev.flinks3.transfer.aws.HttpProxies;
import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.Executor;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.transfer.s3.S3TransferManager;

/**
 * The one CRT-based S3 client of a process ({@code s3.client: crt}) with its Transfer Manager: one native
 * aws-c-s3 client, so one native memory limit and one cap of connections, whatever number of bucket
 * configurations use it. Each configuration leases a view ({@link Lease}) that signs its requests with the
 * configuration's own credentials (the client takes credentials per request); encryption, checksum
 * algorithms and the other per-request options are each request's anyway.
 *
 * <p>What the native client fixes when it is built is not per request: the settings of {@link
 * CrtClientSettings} (endpoint, region, path style, connection cap, part size, native memory limit, retries,
 * timeouts, proxy). A configuration whose values of these differ from the client running is refused
 * ({@link IllegalArgumentException} naming the keys and both values): a second native client would hold a
 * second native memory limit of at least 1 GiB and a second cap of connections, and aws-c-s3 can neither
 * share nor lower them once built. Once the last lease is closed the client is closed, and a later lease may
 * build one with other settings.
 *
 * <p>Thread-safe.
 */
public final class CrtClients implements Closeable {

    private final Executor completion;
    /** Guarded by this. */
    private Shared running;
    /** Guarded by this. */
    private boolean closed;

    /** @param completion completes the client's futures, off the CRT's event loops; not owned */
    public CrtClients(Executor completion) {
        this.completion = completion;
    }

    /**
     * A view on the process's CRT-based S3 client for one configuration, building the client on the first
     * lease. Each lease is closed once.
     *
     * @param credentials signs every request of the view; not owned
     * @throws IllegalArgumentException if the client running has other client-level settings (the message names
     *     the keys), or a setting cannot be applied (see {@link CrtS3Client#build})
     * @throws IllegalStateException if this is closed, or the CRT's native library does not load
     */
    public synchronized Lease lease(
            S3Settings settings, Region region, HttpProxies proxies, AwsCredentialsProvider credentials) {
        if (closed) {
            throw new IllegalStateException("the S3 transport is closed");
        }
        CrtClientSettings wanted = CrtClientSettings.of(settings, region, proxies);
        if (running != null && !running.settings.equals(wanted)) {
            throw new IllegalArgumentException("s3.client: crt runs one CRT-based S3 client per process (one native"
                    + " memory limit, one cap of connections), and this configuration needs one of its own: it differs"
                    + " from the one running in " + String.join(", ", running.settings.differences(wanted))
                    + ". Give these keys the same values for every bucket, or use s3.client: sdk");
        }
        if (running == null) {
            running = new Shared(wanted, settings, region, proxies, completion);
        }
        running.references++;
        return new Lease(running, credentials);
    }

    /** The native CRT-based S3 clients open now: 0 or 1. */
    public synchronized int nativeClients() {
        return running == null ? 0 : 1;
    }

    /** The native memory limit of the client open now in bytes, 0 without one. */
    public synchronized long nativeMemoryLimitBytes() {
        return running == null ? 0 : running.settings.nativeMemoryLimitBytes();
    }

    /** The connection cap of the client open now, 0 without one. */
    public synchronized int maxConnections() {
        return running == null ? 0 : running.settings.maxConnections();
    }

    /**
     * Closes the client if one is still open (leases not yet closed fail from then on). Idempotent.
     *
     * @throws IOException if closing fails
     */
    @Override
    public void close() throws IOException {
        Shared open;
        synchronized (this) {
            closed = true;
            open = running;
            running = null;
        }
        if (open != null) {
            open.closer.close();
        }
    }

    private synchronized void release(Shared shared) throws IOException {
        if (--shared.references > 0 || running != shared) {
            return;
        }
        running = null;
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
