package dev.flinks3.it;

import java.util.Optional;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * LocalStack's S3 in a container started by Testcontainers, once per test JVM, when a Docker engine
 * answers. The image is pinned to a community release that needs no account.
 */
final class LocalStackTarget {

    static final DockerImageName IMAGE = DockerImageName.parse("localstack/localstack:3.8.1");
    private static final String BUCKET = "flinks3-it";

    private static LocalStackContainer container;

    private LocalStackTarget() {}

    /** The running LocalStack as a target, or empty when no Docker engine is available. */
    static synchronized Optional<S3TestTarget> start() {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            return Optional.empty();
        }
        if (container == null) {
            LocalStackContainer started = new LocalStackContainer(IMAGE).withServices(LocalStackContainer.Service.S3);
            started.start();
            Runtime.getRuntime().addShutdownHook(new Thread(started::stop, "localstack-stop"));
            container = started;
            try (S3Client s3 = target().sdkClient()) {
                s3.createBucket(b -> b.bucket(BUCKET));
            }
        }
        return Optional.of(target());
    }

    static String skipReason() {
        return "no Docker engine answers (Testcontainers found none), so LocalStack " + IMAGE + " cannot run";
    }

    private static S3TestTarget target() {
        return new S3TestTarget(
                "LocalStack",
                container.getEndpoint(),
                container.getAccessKey(),
                container.getSecretKey(),
                container.getRegion(),
                BUCKET);
    }
}
