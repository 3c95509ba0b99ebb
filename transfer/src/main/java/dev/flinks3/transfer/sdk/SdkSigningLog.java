package dev.flinks3.transfer.sdk;

import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.SdkBytes;

/**
 * Warns, once per process, when the AWS SDK's request signer logs at DEBUG: it then writes every
 * canonical request it signs, and a canonical request holds the values of the signed headers, among
 * them the session token ({@code x-amz-security-token}, also of role and web-identity credentials)
 * and the SSE-C customer key. Our own code never logs secrets; this logger is the SDK's.
 */
final class SdkSigningLog {

    private static final Logger LOG = LoggerFactory.getLogger(SdkSigningLog.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private SdkSigningLog() {}

    /** The signer's logger name, under the SDK's package as this jar sees it (relocated when shaded). */
    static String signerLoggerName() {
        String core = SdkBytes.class.getPackage().getName();
        String root = core.substring(0, core.lastIndexOf('.'));
        return root + ".http.auth.aws.internal.signer.DefaultV4RequestSigner";
    }

    /** Logs the warning if the signer's logger is at DEBUG and it was not logged before. */
    static void warnIfSecretsWouldBeLogged() {
        String name = signerLoggerName();
        if (LoggerFactory.getLogger(name).isDebugEnabled() && WARNED.compareAndSet(false, true)) {
            LOG.warn(
                    "Logger {} is at DEBUG: the AWS SDK then logs every canonical request it signs, with the"
                            + " session token and any SSE-C customer key in it. Keep it at INFO or above outside debugging.",
                    name);
        }
    }
}
