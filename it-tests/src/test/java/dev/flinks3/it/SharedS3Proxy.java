package dev.flinks3.it;

import dev.flinks3.testserver.EmbeddedS3Server;

/**
 * One embedded S3Proxy for the whole test JVM, started on first use and stopped at JVM exit, so
 * test classes share its start-up cost. It checks upload checksums as S3 does. Tests keep apart by writing under their own key prefixes;
 * a test class that rewrites its answers ({@link EmbeddedS3Server#answers()}) clears its rules after itself.
 */
public final class SharedS3Proxy {

    public static final String BUCKET = "flinks3-it";

    private static EmbeddedS3Server server;

    private SharedS3Proxy() {}

    /** The running server. */
    public static synchronized EmbeddedS3Server server() {
        if (server == null) {
            EmbeddedS3Server started = EmbeddedS3Server.builder()
                    .verifyTrailingChecksums(true)
                    .bucket(BUCKET)
                    .start();
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(
                            () -> {
                                try {
                                    started.close();
                                } catch (Exception e) {
                                    e.printStackTrace();
                                }
                            },
                            "shared-s3proxy-stop"));
            server = started;
        }
        return server;
    }

    /** The server as a test target. */
    public static S3TestTarget target() {
        EmbeddedS3Server s = server();
        return new S3TestTarget("S3Proxy", s.endpoint(), s.accessKey(), s.secretKey(), s.region(), BUCKET);
    }
}
