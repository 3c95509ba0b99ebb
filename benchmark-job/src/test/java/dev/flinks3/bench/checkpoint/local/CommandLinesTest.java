package dev.flinks3.bench.checkpoint.local;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CommandLinesTest {

    @Test
    void masksSecretLikeValuesOnly() {
        assertThat(CommandLines.mask("s3.secret-key=abc")).isEqualTo("s3.secret-key=****");
        assertThat(CommandLines.mask("fs.s3a.session.token=abc")).isEqualTo("fs.s3a.session.token=****");
        assertThat(CommandLines.mask("s3.access-key=AKIA")).isEqualTo("s3.access-key=AKIA");
        assertThat(CommandLines.mask("--duration")).isEqualTo("--duration");
    }
}
