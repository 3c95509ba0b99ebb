package dev.flinks3.bench.checkpoint.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import org.junit.jupiter.api.Test;

class FailureMessagesTest {

    @Test
    void namesTheRootCauseBehindWrappers() {
        Exception failure = new RuntimeException(
                "Failed to execute job 'x'",
                new IllegalStateException("wrapped", new FileNotFoundException("Cannot find checkpoint chk-3")));

        assertThat(FailureMessages.describe(failure))
                .isEqualTo(
                        "Failed to execute job 'x'; root cause: java.io.FileNotFoundException: Cannot find checkpoint chk-3");
    }

    @Test
    void aFailureWithoutCauseIsItsMessage() {
        assertThat(FailureMessages.describe(new RunFailure("job j is FAILED"))).isEqualTo("job j is FAILED");
        assertThat(FailureMessages.describe(new NullPointerException())).isEqualTo("java.lang.NullPointerException");
    }
}
