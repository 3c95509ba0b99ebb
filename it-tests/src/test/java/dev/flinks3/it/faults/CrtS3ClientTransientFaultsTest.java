package dev.flinks3.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.transfer.S3RequestException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link TransientFaultsTest}'s faults on the CRT-based S3 client ({@code s3.client: crt}), whose
 * retries are aws-c-s3's own. Deviations, as docs/crt-client.md says: the request metrics count no retries
 * (the client takes no metric publisher), so only the outcome is checked; aws-c-s3 does not retry a
 * 429 TooManyRequests, nor an XML answer (ListObjectsV2, DeleteObjects) whose body is cut short, so
 * those fail with the server's answer instead of succeeding.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrtS3ClientTransientFaultsTest extends TransientFaultsTest {

    /** Operations whose answer body is parsed only once it is complete. */
    private static final Set<Scenario> XML_ANSWERS = EnumSet.of(Scenario.LIST_OBJECTS_V2, Scenario.DELETE_OBJECTS);

    @Override
    Map<String, String> options() {
        return onTheCrtClient(super.options());
    }

    /** Replaced by {@link #aFaultOnceIsRetriedByTheCrtClientOrFailsAsDocumented}: the metrics count no retries here. */
    @Override
    void aFaultOnceIsRetriedAndTheOperationSucceedsExactly(Scenario scenario, Fault fault) {}

    @ParameterizedTest(name = "{0} × {1}")
    @MethodSource("scenariosAndFaults")
    void aFaultOnceIsRetriedByTheCrtClientOrFailsAsDocumented(Scenario scenario, Fault fault) throws Exception {
        Scenario.Context c = newContext(scenario, fault);
        scenario.prepare(c);
        FaultRule rule = proxy.failNext(scenario.kind(), 1, fault);

        if (notRetried(scenario, fault)) {
            Throwable failure = catchThrowable(() -> scenario.run(c));
            assertThat(failure).as("the operation fails").isNotNull();
            assertThat(causes(failure))
                    .as("causes of %s", failure)
                    .anySatisfy(cause -> assertThat(cause)
                            .isInstanceOf(S3RequestException.class)
                            .hasMessageContaining(scenario.operation()));
            outcomes.record(scenario, fault, "fails: aws-c-s3 does not retry it");
        } else {
            scenario.run(c);
            scenario.assertSucceeded(c);
            outcomes.record(scenario, fault, "succeeds with the exact result; retried by aws-c-s3");
        }
        assertThat(rule.applied()).as("requests spoilt by %s", rule).isEqualTo(1);
        if (scenario.writes()) {
            assertThat(s3.listMultipartUploads(b -> b.bucket(bucket).prefix(c.key(c.dir) + "/"))
                            .uploads())
                    .as("multipart uploads left")
                    .isEmpty();
        }
    }

    private static List<Throwable> causes(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = failure; t != null && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }

    private static boolean notRetried(Scenario scenario, Fault fault) {
        return (fault.type() == Fault.Type.ERROR_ANSWER && fault.status() == 429)
                || (fault.type() == Fault.Type.CLOSE_MID_BODY && XML_ANSWERS.contains(scenario));
    }
}
