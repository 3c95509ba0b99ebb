package dev.flinks3.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.transfer.S3RequestException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link PersistentFaultsTest}'s faults on the CRT-based S3 client ({@code s3.client: crt}): every
 * request of one kind spoilt until the operation gives up fails with an error naming the location and
 * leaves no partial object or multipart upload behind. Deviations, as docs/crt-client.md
 * says, each checked here instead of the inherited expectation:
 * <ul>
 *   <li>an error answer on every attempt that aws-c-s3 retries (500, 503) reaches the plugin without its HTTP status or S3
 *       error code: aws-c-s3 retries it and then reports only its own error, so the message carries
 *       that error and a hint naming {@code s3.client: sdk}, which reports both;
 *   <li>an answer delayed beyond the suite's attempt timeout succeeds late: the client takes no
 *       per-attempt timeout.
 * </ul>
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrtS3ClientPersistentFaultsTest extends PersistentFaultsTest {

    @Override
    Map<String, String> options() {
        return onTheCrtClient(super.options());
    }

    /** Replaced by {@link #aFaultOnEveryAttemptFailsCleanlyOrAsDocumentedForTheCrtClient}. */
    @Override
    void aFaultOnEveryAttemptFailsCleanlyOrIsResolved(Scenario scenario, Fault fault) {}

    @ParameterizedTest(name = "{0} × {1}")
    @MethodSource("scenariosAndFaults")
    void aFaultOnEveryAttemptFailsCleanlyOrAsDocumentedForTheCrtClient(Scenario scenario, Fault fault)
            throws Exception {
        if (retriedByTheClient(fault)) {
            Scenario.Context c = newContext(scenario, fault);
            scenario.prepare(c);
            FaultRule rule = proxy.failAlways(scenario.kind(), fault);

            Throwable failure = catchThrowable(() -> scenario.run(c));

            assertThat(rule.applied()).as("requests spoilt by %s", rule).isPositive();
            assertThat(failure)
                    .as("%s under %s", scenario, fault)
                    .isInstanceOf(S3RequestException.class)
                    .hasMessageContaining(scenario.location(c))
                    .hasMessageContaining("Response code indicates")
                    .hasMessageContaining("s3.client: sdk");
            proxy.clear();
            if (scenario.writes()) {
                c.assertNothingLeftBehind();
            }
            outcomes.record(
                    scenario,
                    fault,
                    "fails" + (scenario.writes() ? ", nothing left behind" : "")
                            + ": aws-c-s3's own error, without the HTTP status");
        } else if (fault.type() == Fault.Type.DELAY_FIRST_BYTE) {
            Scenario.Context c = newContext(scenario, fault);
            scenario.prepare(c);
            FaultRule rule = proxy.failAlways(scenario.kind(), fault);

            scenario.run(c);

            assertThat(rule.applied()).as("requests delayed by %s", rule).isPositive();
            proxy.clear();
            scenario.assertSucceeded(c);
            outcomes.record(scenario, fault, "succeeds late: the client takes no per-attempt timeout");
        } else {
            super.aFaultOnEveryAttemptFailsCleanlyOrIsResolved(scenario, fault);
        }
    }

    /** The error answers aws-c-s3 retries itself; a 429 it does not retry reaches the plugin as is. */
    private static boolean retriedByTheClient(Fault fault) {
        return fault.type() == Fault.Type.ERROR_ANSWER && (fault.status() == 500 || fault.status() == 503);
    }
}
