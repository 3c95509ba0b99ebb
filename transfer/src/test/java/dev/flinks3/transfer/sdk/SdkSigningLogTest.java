package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SdkSigningLogTest {

    @Test
    void namesTheLoggerOfTheSignerThisSdkVersionUses() throws Exception {
        String name = SdkSigningLog.signerLoggerName();

        assertThat(name).isEqualTo("software.amazon.awssdk.http.auth.aws.internal.signer.DefaultV4RequestSigner");
        assertThat(Class.forName(name)).isNotNull();
    }
}
