package dev.flinks3.it.migration;

import dev.flinks3.it.S3TestTarget;
import dev.flinks3.testserver.EmbeddedS3Server;

/**
 * One embedded S3Proxy for this package's test classes, started on first use and stopped at JVM exit; its
 * answers may be rewritten by a test class ({@link EmbeddedS3Server#answers()}), which clears its rules
 * after itself. Classes keep apart by key prefixes.
 */
final class MigrationS3Proxy {

    static final String BUCKET = "migration";

    private static EmbeddedS3Server server;

    private MigrationS3Proxy() {}

    static synchronized EmbeddedS3Server server() {
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
                            "migration-s3proxy-stop"));
            server = started;
        }
        return server;
    }

    static S3TestTarget target() {
        EmbeddedS3Server s = server();
        return new S3TestTarget("S3Proxy", s.endpoint(), s.accessKey(), s.secretKey(), s.region(), BUCKET);
    }
}
