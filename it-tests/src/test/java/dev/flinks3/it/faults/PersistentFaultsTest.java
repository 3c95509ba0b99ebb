package dev.flinks3.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 6, persistent faults: every request of one kind is spoilt, by each fault, until the
 * operation gives up. It fails with an {@link IOException} naming the {@code s3://} location (and the
 * HTTP status and S3 error code of an error answer), leaving no partial object and no multipart
 * upload behind, or, where the server acted and only the answers were lost, the commit is recognised
 * by its ETag and succeeds with exactly the bytes written, once.
 */
class PersistentFaultsTest extends FaultSuite {

    /** Two attempts per request keep the suite short; the transient suite shows the retries themselves. */
    @Override
    Map<String, String> options() {
        return Map.of("s3.retry.max-num-retries", "1");
    }

    @ParameterizedTest(name = "{0} × {1}")
    @MethodSource("scenariosAndFaults")
    void aFaultOnEveryAttemptFailsCleanlyOrIsResolved(Scenario scenario, Fault fault) throws Exception {
        Scenario.Context c = newContext(scenario, fault);
        scenario.prepare(c);
        FaultRule rule = proxy.failAlways(scenario.kind(), fault);

        Throwable failure = catchThrowable(() -> scenario.run(c));

        assertThat(rule.applied()).as("requests spoilt by %s", rule).isPositive();
        if (resolvedByCommitCheck(scenario, fault)) {
            assertThat(failure).as("a commit whose answers were lost").isNull();
            proxy.clear();
            scenario.assertSucceeded(c);
            assertThat(s3.listMultipartUploads(b -> b.bucket(bucket).prefix(c.key(c.dir) + "/"))
                            .uploads())
                    .as("multipart uploads left")
                    .isEmpty();
            outcomes.record(
                    scenario,
                    fault,
                    "succeeds: answers lost, HEAD found the object with the expected ETag;" + " exact bytes, once");
            return;
        }
        assertThat(failure).as("%s under %s", scenario, fault).isInstanceOf(IOException.class);
        assertThat(failure.getMessage()).contains(scenario.location(c));
        if (fault.type() == Fault.Type.ERROR_ANSWER) {
            assertThat(failure.getMessage()).contains("HTTP " + fault.status());
            if (scenario != Scenario.HEAD_OBJECT) {
                // The answer to a HEAD has no body, so S3 gives no error code for it.
                assertThat(failure.getMessage()).contains(fault.errorCode());
            }
        }
        proxy.clear();
        if (scenario.writes()) {
            c.assertNothingLeftBehind();
        }
        outcomes.record(
                scenario,
                fault,
                "fails" + (scenario.writes() ? ", nothing left behind" : "") + ": "
                        + failure.getClass().getSimpleName() + " \"" + abbreviate(failure.getMessage()) + "\"");
    }

    private static String abbreviate(String message) {
        String firstLine = message.lines().findFirst().orElse("");
        return firstLine.length() <= 220 ? firstLine : firstLine.substring(0, 220) + "...";
    }

    /**
     * The server completed the write but every answer was lost or late: the commit's HEAD finds the
     * object with the ETag the writer computed.
     */
    private static boolean resolvedByCommitCheck(Scenario scenario, Fault fault) {
        boolean commits = scenario == Scenario.PUT_OBJECT || scenario == Scenario.COMPLETE_MULTIPART_UPLOAD;
        return commits && fault.reachesServer();
    }
}
