package dev.flinks3.it;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

/**
 * A test target given by environment variables, for running the suites against MinIO, AWS or any
 * other S3-compatible endpoint:
 *
 * <pre>
 * FLINKS3_IT_ENDPOINT   e.g. http://localhost:9000 or https://s3.eu-west-1.amazonaws.com (required)
 * FLINKS3_IT_BUCKET     an existing bucket the tests may write to (required)
 * FLINKS3_IT_ACCESS_KEY, FLINKS3_IT_SECRET_KEY   credentials (required)
 * FLINKS3_IT_REGION     signing region (default us-east-1)
 * </pre>
 */
final class EnvironmentTarget {

    static final String ENDPOINT = "FLINKS3_IT_ENDPOINT";
    static final String BUCKET = "FLINKS3_IT_BUCKET";
    static final String ACCESS_KEY = "FLINKS3_IT_ACCESS_KEY";
    static final String SECRET_KEY = "FLINKS3_IT_SECRET_KEY";
    static final String REGION = "FLINKS3_IT_REGION";

    private EnvironmentTarget() {}

    /** The target, or empty when the required variables are not all set. */
    static Optional<S3TestTarget> fromEnvironment(Map<String, String> environment) {
        String endpoint = environment.get(ENDPOINT);
        String bucket = environment.get(BUCKET);
        String accessKey = environment.get(ACCESS_KEY);
        String secretKey = environment.get(SECRET_KEY);
        if (isBlank(endpoint) || isBlank(bucket) || isBlank(accessKey) || isBlank(secretKey)) {
            return Optional.empty();
        }
        String region = isBlank(environment.get(REGION)) ? "us-east-1" : environment.get(REGION);
        return Optional.of(new S3TestTarget(
                "endpoint from " + ENDPOINT, URI.create(endpoint), accessKey, secretKey, region, bucket));
    }

    static String skipReason() {
        return "no S3 endpoint given: set " + ENDPOINT + ", " + BUCKET + ", " + ACCESS_KEY + " and " + SECRET_KEY
                + " (optionally " + REGION + ") to run against MinIO, AWS or another S3-compatible server";
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }
}
