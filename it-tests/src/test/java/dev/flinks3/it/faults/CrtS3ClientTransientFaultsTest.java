package dev.flinks3.it.faults;

import java.util.HashMap;
import java.util.Map;

/** {@link TransientFaultsTest}'s faults on the CRT-based S3 client ({@code s3.client: crt}), whose retries are aws-c-s3's. */
class CrtS3ClientTransientFaultsTest extends TransientFaultsTest {

    @Override
    Map<String, String> options() {
        Map<String, String> options = new HashMap<>(super.options());
        options.put("s3.client", "crt");
        return options;
    }
}
