package dev.flinks3.it.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.RequestKind;
import dev.flinks3.transfer.sdk.S3RequestMetrics;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 6, transient faults: one request of each kind is spoilt once, by each fault; the operation
 * succeeds with exactly the right bytes, because the SDK retries the request (throttling with a longer
 * backoff than other failures, a hanging attempt at the per-attempt timeout), the read path reopens a
 * broken body, and a commit whose answer was lost is recognised by its ETag.
 */
class TransientFaultsTest extends FaultSuite {

    @Override
    Map<String, String> options() {
        return Map.of("s3.retry.max-num-retries", "3");
    }

    @ParameterizedTest(name = "{0} × {1}")
    @MethodSource("scenariosAndFaults")
    void aFaultOnceIsRetriedAndTheOperationSucceedsExactly(Scenario scenario, Fault fault) throws Exception {
        Scenario.Context c = newContext(scenario, fault);
        scenario.prepare(c);
        FaultRule rule = proxy.failNext(scenario.kind(), 1, fault);
        server.requestLog().clear();
        proxy.clearRecorded();
        S3RequestMetrics.Snapshot before = fileSystem.metrics();

        scenario.run(c);

        S3RequestMetrics.Snapshot since = fileSystem.metrics().since(before);
        long unreached = since.attempts() - proxy.recorded().size();
        scenario.assertSucceeded(c);
        assertThat(rule.applied()).as("requests spoilt by %s", rule).isEqualTo(1);
        if (scenario.writes()) {
            assertThat(s3.listMultipartUploads(b -> b.bucket(bucket).prefix(c.key(c.dir) + "/"))
                            .uploads())
                    .as("multipart uploads left")
                    .isEmpty();
        }
        assertRecovered(scenario, fault, c, since, unreached);
        outcomes.record(scenario, fault, "succeeds with the exact result; " + recovery(scenario, fault, since));
    }

    private static String recovery(Scenario scenario, Fault fault, S3RequestMetrics.Snapshot since) {
        if (scenario == Scenario.GET_OBJECT
                && (fault.type() == Fault.Type.RESET_MID_BODY || fault.type() == Fault.Type.CLOSE_MID_BODY)) {
            return "the read path resumed with a second ranged GET";
        }
        if (scenario == Scenario.GET_OBJECT) {
            return "the direct GET was sent again through the SDK"
                    + (isThrottling(fault) ? " after a throttling backoff" : "");
        }
        String how = switch (fault.type()) {
            case ERROR_ANSWER ->
                isThrottling(fault)
                        ? "retried after a throttling backoff (every one at least " + THROTTLED_RETRY_BACKOFF_MIN_MS
                                + " ms)"
                        : "retried after a backoff of at most " + FIRST_RETRY_BACKOFF_LIMIT_MS + " ms";
            case DELAY_FIRST_BYTE ->
                "attempt abandoned at the " + ATTEMPT_TIMEOUT.toSeconds() + " s attempt timeout, retried";
            default -> "retried after the broken connection";
        };
        boolean commitChecked = since.failedRequests() > 0
                && fault.reachesServer()
                && (scenario == Scenario.PUT_OBJECT || scenario == Scenario.COMPLETE_MULTIPART_UPLOAD);
        return how
                + (commitChecked ? "; the retry found the write done (412/NoSuchUpload), HEAD matched the ETag" : "");
    }

    /**
     * How the operation got past the fault, from the filesystem's request metrics and the server's log.
     * {@code unreached} attempts never reached the proxy (the client's attempts less the requests the proxy
     * received): a pooled connection that broke on its own. Each is a connection failure the SDK retries, as it
     * should, and is not the fault's doing; they are told apart so that the fault's one retry is still counted
     * exactly.
     */
    private void assertRecovered(
            Scenario scenario, Fault fault, Scenario.Context c, S3RequestMetrics.Snapshot since, long unreached) {
        assertThat(unreached)
                .as("attempts that never reached the proxy, each a connection failure: %s", since)
                .isNotNegative()
                .isLessThanOrEqualTo(since.connectionFailedAttempts());
        if (scenario == Scenario.GET_OBJECT
                && (fault.type() == Fault.Type.RESET_MID_BODY || fault.type() == Fault.Type.CLOSE_MID_BODY)) {
            // The SDK hands the body out with the headers; the read path reopens at the broken position.
            assertThat(server.requestLog().entries(RequestKind.GET_OBJECT))
                    .filteredOn(r -> r.key().equals(c.key(c.file())))
                    .as("ranged GETs of %s: the first broke, the second resumed", c.file())
                    .hasSize(2);
            return;
        }
        if (scenario == Scenario.GET_OBJECT) {
            // The read path's GETs go directly first (s3.read.direct-get.enabled): the spoilt direct attempt is
            // sent again through the SDK, whose first attempt is served.
            assertThat(proxy.recorded())
                    .as("attempts of %s that reached the proxy: %s", scenario, since)
                    .hasSize(2);
            assertThat(since.retries(scenario.operation()))
                    .as("retries of %s: %s", scenario, since)
                    .isEqualTo(unreached);
        } else {
            // Expected from the fault and the client's own account, not from what the proxy saw: the fault's one
            // retry, and one for every other attempt the client found broken or timed out (a pooled connection
            // that broke on its own, an attempt slower than the attempt timeout on a loaded machine). An error
            // answer the fault did not inject is not retried here (the commit check's 412 ends its request).
            long faultsOwnFailure = fault.type() == Fault.Type.ERROR_ANSWER ? 0 : 1;
            long otherFailures = since.connectionFailedAttempts() + since.timedOutAttempts() - faultsOwnFailure;
            assertThat(otherFailures)
                    .as("attempts that failed besides the fault's: %s", since)
                    .isNotNegative();
            assertThat(since.retries())
                    .as("retries of every request: the fault's one and one per other failed attempt: %s", since)
                    .isEqualTo(1 + otherFailures);
            assertThat(since.retries(scenario.operation()))
                    .as("retries of %s: %s", scenario, since)
                    .isBetween(1L, 1 + otherFailures);
        }
        switch (fault.type()) {
            case ERROR_ANSWER -> {
                if (isThrottling(fault)) {
                    assertThat(since.throttledAttempts())
                            .as("throttled attempts: %s", since)
                            .isEqualTo(1);
                    assertThat(since.backoffAfterThrottling().shortestMillis())
                            .isGreaterThanOrEqualTo(THROTTLED_RETRY_BACKOFF_MIN_MS);
                } else {
                    assertThat(since.errorAnswerAttempts())
                            .as("error answers: %s", since)
                            .isPositive();
                    assertThat(since.backoffAfterOtherFailures().longestMillis())
                            .isLessThanOrEqualTo(FIRST_RETRY_BACKOFF_LIMIT_MS);
                }
            }
            case DELAY_FIRST_BYTE ->
                assertThat(since.timedOutAttempts())
                        .as("attempts abandoned at the %s per-attempt timeout: %s", ATTEMPT_TIMEOUT, since)
                        .isEqualTo(1);
            default ->
                assertThat(since.connectionFailedAttempts() - unreached)
                        .as("attempts without a usable answer, besides those that never reached the proxy: %s", since)
                        .isEqualTo(1);
        }
    }
}
