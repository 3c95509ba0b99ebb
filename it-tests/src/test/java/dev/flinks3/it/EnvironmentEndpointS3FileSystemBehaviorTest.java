package dev.flinks3.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;

/** Flink's filesystem contract for {@code s3://} against the endpoint named in {@code FLINKS3_IT_*} variables. */
class EnvironmentEndpointS3FileSystemBehaviorTest extends AbstractS3FileSystemBehaviorTest {

    private final Optional<S3TestTarget> target = EnvironmentTarget.fromEnvironment(System.getenv());

    @Override
    protected S3TestTarget target() {
        if (target.isEmpty()) {
            System.out.println("Skipping " + getClass().getSimpleName() + ": " + EnvironmentTarget.skipReason());
        }
        assumeTrue(target.isPresent(), EnvironmentTarget::skipReason);
        return target.get();
    }

    @Override
    protected String scheme() {
        return "s3";
    }
}
