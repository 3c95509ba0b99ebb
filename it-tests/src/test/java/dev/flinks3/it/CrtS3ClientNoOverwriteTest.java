package dev.flinks3.it;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/** {@link NoOverwriteTest}'s conditional writes on the CRT-based S3 client ({@code s3.client: crt}). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrtS3ClientNoOverwriteTest extends NoOverwriteTest {

    @Override
    protected Map<String, String> options() {
        Map<String, String> options = new HashMap<>(super.options());
        options.put("s3.client", "crt");
        return options;
    }
}
