package dev.flinks3.fs.token;

import dev.flinks3.transfer.aws.DelegatedCredentials;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.security.token.DelegationTokenReceiver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Receives, in every Flink process, the S3 session credentials that the JobManager's {@link
 * S3DelegationTokenProvider} obtained, and hands them to this plugin's S3 clients ({@link
 * DelegatedCredentials}), which use them in place of the SDK's default credentials chain (static keys
 * and configured provider classes still take precedence). Each new set replaces the last, so renewals
 * take effect on the next request. Registered in {@code
 * META-INF/services/org.apache.flink.core.security.token.DelegationTokenReceiver}; Flink loads it from
 * the plugin directory (Flink documentation, "Delegation Tokens").
 */
public class S3DelegationTokenReceiver implements DelegationTokenReceiver {

    private static final Logger LOG = LoggerFactory.getLogger(S3DelegationTokenReceiver.class);

    @Override
    public String serviceName() {
        return S3DelegationTokenProvider.SERVICE_NAME;
    }

    @Override
    public void init(Configuration configuration) {}

    /**
     * @throws java.io.IOException if the bytes are not this plugin's token
     */
    @Override
    public void onNewTokensObtained(byte[] tokens) throws Exception {
        SessionCredentialsToken token = SessionCredentialsToken.fromBytes(tokens);
        DelegatedCredentials.update(token.accessKeyId, token.secretAccessKey, token.sessionToken, token.expiration);
        LOG.info("Received S3 session credentials from Flink's delegation tokens: {}", token);
    }
}
