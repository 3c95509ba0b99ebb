package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.options.S3Options;
import java.lang.reflect.Field;
import software.amazon.awssdk.crt.io.TlsContext;
import software.amazon.awssdk.crt.io.TlsContextOptions;
import software.amazon.awssdk.http.async.SdkAsyncHttpClient;

/**
 * Makes a CRT HTTP client trust the certificates of a CA file.
 *
 * <p>The SDK's {@code AwsCrtAsyncHttpClient} builder (2.57.8) takes a trust store only from the JVM's
 * {@code javax.net.ssl.trustStore} system properties, which would change it for the whole process. The
 * client keeps one TLS context, read when it opens the connection pool of an endpoint (at the first
 * request), so before the first request this class gives it a TLS context with the SDK's defaults
 * (the CRT's default client options, peer verification on) whose trust store is the CA file. The new
 * context is the caller's to close, after the client.
 */
public final class CrtTrustStore {

    private static final String TLS_CONTEXT_FIELD = "tlsContext";

    private CrtTrustStore() {}

    /** A TLS context whose trust store is exactly {@code certificates}; the caller closes it. */
    public static TlsContext context(TrustedCertificates certificates) {
        try (TlsContextOptions options = TlsContextOptions.createDefaultClient()) {
            options.overrideDefaultTrustStore(certificates.pem());
            return new TlsContext(options);
        }
    }

    /**
     * Replaces the TLS context of a CRT client that has not sent a request yet.
     *
     * @throws IllegalStateException if this SDK version's CRT client keeps no TLS context where
     *     expected, so a configured CA file cannot be applied
     */
    public static void install(SdkAsyncHttpClient crtClient, TlsContext context) {
        for (Class<?> type = crtClient.getClass(); type != null; type = type.getSuperclass()) {
            try {
                Field field = type.getDeclaredField(TLS_CONTEXT_FIELD);
                if (field.getType() == TlsContext.class) {
                    field.setAccessible(true);
                    field.set(crtClient, context);
                    return;
                }
            } catch (NoSuchFieldException e) {
                // the field is declared by a superclass
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw unsupported(e);
            }
        }
        throw unsupported(null);
    }

    private static IllegalStateException unsupported(Throwable cause) {
        return new IllegalStateException(
                "This AWS SDK's CRT HTTP client cannot be given a CA file"
                        + " ('" + S3Options.SSL_CA_FILE.key() + "'); use '" + S3Options.HTTP_CLIENT.key()
                        + ": netty' with it, or"
                        + " the JVM trust store"
                        + " (-Djavax.net.ssl.trustStore)",
                cause);
    }
}
