package dev.flinks3.bench.fsbench;

import dev.flinks3.testserver.EmbeddedS3Server;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Flink configuration every contender gets for the benchmark's S3 server, in the spellings all
 * of Flink's S3 plugins read (docs/benchmarks/README.md, "Method"): {@code s3.endpoint},
 * {@code s3.path.style.access}, {@code s3.access-key}, {@code s3.secret-key}, and a region for the
 * plugins on AWS SDK v2 ({@code s3.region} for native; Flink's hadoop plugin mirrors
 * {@code s3.endpoint.region} to {@code fs.s3a.endpoint.region}). Plugin defaults are left alone:
 * users get them.
 */
final class EndpointConfiguration {

    private EndpointConfiguration() {}

    /**
     * @param tmpDir the contender's {@code io.tmp.dirs}, where plugins that spool to disk do so
     */
    static Map<String, String> of(URI endpoint, Path tmpDir) {
        Map<String, String> configuration = new LinkedHashMap<>();
        configuration.put("s3.endpoint", endpoint.toString());
        configuration.put("s3.path.style.access", "true");
        configuration.put("s3.access-key", EmbeddedS3Server.ACCESS_KEY);
        configuration.put("s3.secret-key", EmbeddedS3Server.SECRET_KEY);
        configuration.put("s3.region", EmbeddedS3Server.REGION);
        configuration.put("s3.endpoint.region", EmbeddedS3Server.REGION);
        configuration.put("io.tmp.dirs", tmpDir.toAbsolutePath().toString());
        return configuration;
    }
}
