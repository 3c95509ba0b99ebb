package dev.flinks3.transfer.aws;

import dev.flinks3.transfer.options.S3Options;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.crt.CRT;
import software.amazon.awssdk.crt.CrtRuntimeException;

/**
 * Whether the AWS CRT's native library loads in this JVM. The CRT extracts it from its jar into the
 * directory of the system property {@value #LIB_DIR_PROPERTY} (default: {@code java.io.tmpdir}) and
 * loads it from there, which fails on a temp directory mounted {@code noexec}, with a C library older
 * than the one it was built for (or musl where glibc is expected), or on a platform it has no build for.
 */
public final class CrtNativeLibrary {

    /** The CRT's system property naming the directory its native library is extracted to. */
    static final String LIB_DIR_PROPERTY = "aws.crt.lib.dir";

    private static final Logger LOG = LoggerFactory.getLogger(CrtNativeLibrary.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private CrtNativeLibrary() {}

    /** The reason the native library does not load, or {@code null} if it is loaded. */
    public static Throwable loadFailure() {
        try {
            CRT.checkLoaded();
            return null;
        } catch (CrtRuntimeException | LinkageError e) {
            return e;
        }
    }

    /** Logs, once per JVM, that the Netty client replaces the CRT client and why. */
    public static void warnFallback(Throwable failure) {
        if (WARNED.compareAndSet(false, true)) {
            LOG.warn(
                    "The AWS CRT native library could not be loaded ({}); S3 requests use the Netty HTTP client"
                            + " instead of '" + S3Options.HTTP_CLIENT.key()
                            + ": crt'. If the temp directory does not allow executables"
                            + " (noexec), point the system property {} at a directory that does, e.g."
                            + " -D{}=/opt/flink/crt; set '" + S3Options.HTTP_CLIENT.key()
                            + ": netty' to choose Netty without this"
                            + " warning.",
                    describe(failure),
                    LIB_DIR_PROPERTY,
                    LIB_DIR_PROPERTY);
        }
    }

    /** The failure and its causes' messages on one line. */
    public static String describe(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            text.append(text.length() == 0 ? "" : ": ").append(t.getClass().getSimpleName());
            if (t.getMessage() != null) {
                text.append(' ').append(t.getMessage());
            }
        }
        return text.toString();
    }
}
