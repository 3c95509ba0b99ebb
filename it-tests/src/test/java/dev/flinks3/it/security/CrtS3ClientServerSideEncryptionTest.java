package dev.flinks3.it.security;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** {@link ServerSideEncryptionTest}'s headers on the CRT-based S3 client ({@code s3.client: crt}). */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CrtS3ClientServerSideEncryptionTest extends ServerSideEncryptionTest {

    @Override
    protected Map<String, String> clientOptions() {
        return Map.of("s3.client", "crt");
    }
}
