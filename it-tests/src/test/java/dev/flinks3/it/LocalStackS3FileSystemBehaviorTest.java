package dev.flinks3.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Optional;

/** Flink's filesystem contract for {@code s3://} against LocalStack, where a Docker engine answers. */
class LocalStackS3FileSystemBehaviorTest extends AbstractS3FileSystemBehaviorTest {

    private Optional<S3TestTarget> target;

    @Override
    protected S3TestTarget target() {
        if (target == null) {
            target = LocalStackTarget.start();
            if (target.isEmpty()) {
                System.out.println("Skipping " + getClass().getSimpleName() + ": " + LocalStackTarget.skipReason());
            }
        }
        assumeTrue(target.isPresent(), LocalStackTarget::skipReason);
        return target.get();
    }

    @Override
    protected String scheme() {
        return "s3";
    }
}
