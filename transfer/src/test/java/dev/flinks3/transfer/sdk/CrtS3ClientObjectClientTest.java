package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.RequestRecord;
import dev.flinks3.transfer.ClientSettings;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * {@link SdkObjectClient} on the CRT-based S3 client ({@code s3.client: crt}) against S3Proxy: every
 * request of the engines works on it as on the SDK client, with one difference in what is sent.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrtS3ClientObjectClientTest extends SdkObjectClientS3ProxyTest {
    CrtS3ClientObjectClientTest() {
        super(ClientSettings.ClientType.CRT, ClientSettings.HttpClientType.CRT);
    }

    /**
     * Deviation: the CRT client computes the checksum S3 requires on DeleteObjects itself, a CRC32
     * header, and drops the SDK's Content-MD5 plugin, so servers that predate flexible checksums (they
     * answer 400 MissingContentMD5) need {@code s3.client: sdk}. S3 and S3Proxy accept the CRC32.
     */
    @Override
    protected void assertDeleteObjectsChecksum(RequestRecord request) {
        assertThat(request.header("x-amz-checksum-crc32")).isPresent();
        assertThat(request.header("Content-MD5")).isEmpty();
    }
}
