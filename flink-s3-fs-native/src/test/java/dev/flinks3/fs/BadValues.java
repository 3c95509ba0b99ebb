package dev.flinks3.fs;

import java.util.List;
import java.util.Map;

/**
 * The table of bad configuration values that both {@code S3SettingsFactoryTest} (settings built from a
 * Flink configuration) and the HTTP test {@code BadInputTest} in {@code it-tests} (through Flink's
 * filesystem factory, before any request) try: each must fail naming the key as written, the value and
 * what is allowed. Shared with the other modules through this module's test jar; a row added here is
 * tried at both levels.
 */
public final class BadValues {

    /**
     * One bad configuration.
     *
     * @param config the keys to set
     * @param key the key the message must name, as written
     * @param value the value the message must show
     * @param allowed what the message must say is allowed
     */
    public record Row(Map<String, String> config, String key, String value, String allowed) {}

    private BadValues() {}

    /** The rows, each configuration on its own (no endpoint or credentials of a test's). */
    public static List<Row> rows() {
        return List.of(
                bad("s3.endpoint", "ftp://host", "http:// or https:// URL"),
                bad("fs.s3a.endpoint", "http://", "http:// or https:// URL"),
                bad("s3.endpoint", "http://host:port", "http:// or https:// URL"),
                bad("s3.ssl.enabled", "maybe", "true or false"),
                bad("s3.path-style-access", "yes", "true or false"),
                bad("fs.s3a.path.style.access", "1", "true or false"),
                bad("s3.region", "us east 1", "region name"),
                bad("fs.s3a.endpoint.region", "http://minio:9000", "region name"),
                bad("s3.assume-role.arn", "flink-role", "IAM role ARN"),
                bad("fs.s3a.assumed.role.arn", "arn:aws:iam", "IAM role ARN"),
                bad("s3.assume-role.external-id", "x", "2 to 1224"),
                bad("s3.assume-role.session-name", "flink session", "2 to 64"),
                bad("s3.assume-role.session-duration", "60", "15 min to 12 h"),
                bad("fs.s3a.assumed.role.session.duration", "13h", "15 min to 12 h"),
                bad("s3.assume-role.session-duration", "soon", "15 min to 12 h"),
                bad("s3.http-client", "okhttp", "one of crt, netty"),
                bad("s3.connection.max", "0", "at least 1"),
                bad("fs.s3a.connection.maximum", "many", "at least 1"),
                bad("s3.connection.timeout", "0 s", "positive duration"),
                bad("s3.socket.timeout", "-5 s", "positive duration"),
                bad("s3.connection.max-idle-time", "later", "positive duration"),
                bad("s3.request.attempt-timeout", "0", "positive duration"),
                bad("s3.request.timeout", "1 lightyear", "positive duration"),
                bad("s3.retry.max-num-retries", "-1", "from 0 to 100"),
                bad("s3.close.timeout", "0 ms", "positive duration"),
                bad("s3.client.close.timeout", "x", "positive duration"),
                bad("s3.async.enabled", "sometimes", "true or false"),
                bad("s3.upload.min.part.size", "1048576", "from 5 MiB to 1 GiB"),
                bad("s3.upload.min.part.size", "2g", "from 5 MiB to 1 GiB"),
                bad("fs.s3a.multipart.size", "6g", "from 5 MiB to 1 GiB"),
                bad("s3.upload.min.part.size", "big", "from 5 MiB to 1 GiB"),
                bad("s3.upload.max.concurrent.uploads", "0", "from 1 to 10000"),
                bad("s3.upload.max-buffered-size", "1 mb", "at least 5 MiB"),
                bad("s3.conditional-writes.enabled", "on", "true or false"),
                bad("s3.checksum-validation.enabled", "off", "true or false"),
                bad("s3.chunked-encoding.enabled", "no", "true or false"),
                bad("s3.read.ahead-size", "1 kb", "from 64 KiB to 1 GiB"),
                bad("s3.read.ahead-parallelism", "0", "from 1 to 64"),
                bad("s3.read.buffer.size", "1024", "from 65536 to 4194304"),
                bad("s3.bulk-copy.enabled", "y", "true or false"),
                bad("s3.directory-markers.enabled", "maybe", "true or false"),
                bad("s3.read.direct-get.enabled", "sometimes", "true or false"),
                bad("s3.bulk-copy.max-concurrent", "0", "from 1 to 1024"),
                bad("s3.sse.type", "rot13", "sse-kms"),
                bad("fs.s3a.encryption.algorithm", "CSE-KMS", "sse-kms"),
                bad(
                        Map.of("s3.sse.type", "sse-kms", "s3.sse.kms.encryption-context", "no pairs here"),
                        "s3.sse.kms.encryption-context",
                        "no pairs here",
                        "key=value pairs"),
                bad("s3.sse.kms.bucket-key.enabled", "yes", "true or false"),
                bad(
                        Map.of("s3.sse.type", "sse-s3", "s3.sse.kms.bucket-key.enabled", "true"),
                        "s3.sse.kms.bucket-key.enabled",
                        "true",
                        "not sse-kms"),
                bad("s3.client", "transfer-manager", "one of sdk, crt"),
                bad("s3.ssl.ca-file", "/no/such/ca.pem", "readable file of PEM certificates"),
                bad("s3.proxy.host", "http://proxy:3128", "host name or IP address without scheme or port"),
                bad(
                        Map.of("s3.proxy.host", "proxy", "fs.s3a.proxy.port", "70000"),
                        "fs.s3a.proxy.port",
                        "70000",
                        "from 1 to 65535"),
                bad("s3.proxy.non-proxy-hosts", "10.*", "'*.domain' or '*'"),
                bad("s3.entropy.key", "_ent#ropy_", "without any of"),
                bad("s3.entropy.length", "0", "from 1 to 64"),
                bad("s3.metrics.log-interval", "-1 min", "0 or a positive duration"),
                bad("s3.metrics.log-interval", "hourly", "0 or a positive duration"),
                bad("s3.multipart.purge.age", "-1 d", "0 or a positive duration"),
                bad("s3.expect-continue.enabled", "maybe", "true or false"),
                bad("s3.upload.uniform-parts", "yes", "true or false"),
                bad("s3.sse.kms.check-on-create", "1", "true or false"),
                bad("s3.bulk-copy.range-size", "1 kb", "from 64 KiB to 1 GiB"),
                bad("s3.storage-class", "FROZEN", "STANDARD_IA"),
                bad("s3.requester-pays.enabled", "sometimes", "true or false"));
    }

    private static Row bad(String key, String value, String allowed) {
        return new Row(Map.of(key, value), key, value, allowed);
    }

    private static Row bad(Map<String, String> config, String key, String value, String allowed) {
        return new Row(config, key, value, allowed);
    }
}
