package dev.flinks3.it.security;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.flinks3.it.FlinkS3FileSystems;
import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.it.faults.ProxiedRequest;
import dev.flinks3.testserver.EmbeddedS3Server;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The assume-role options take effect: {@code s3.assume-role.arn}, {@code .external-id}, {@code
 * .session-name} and {@code .session-duration} become the {@code RoleArn}, {@code ExternalId}, {@code
 * RoleSessionName} and {@code DurationSeconds} of the STS {@code AssumeRole} call, which is signed with
 * the configured base keys, and every S3 request is then signed with the role's temporary credentials
 * (its access key id in the SigV4 {@code Credential}, its session token in {@code x-amz-security-token}),
 * never with the base keys. STS is a local stand-in (WireMock answering {@code AssumeRole}) that the
 * SDK's STS client finds through its documented {@code aws.endpointUrlSts} system property: the plugin
 * has no STS endpoint setting of its own. The S3 side is {@link UnsignedServer}: S3Proxy 4.1.0 answers
 * 501 to a session token, so the recording proxy strips it after recording what the filesystem sent.
 */
class AssumeRoleTest {

    private static final String ROLE_ARN = "arn:aws:iam::123456789012:role/flink-checkpoints";
    private static final String EXTERNAL_ID = "flinks3-external-id";
    private static final String SESSION_NAME = "flinks3-assume-role-it";
    private static final String BASE_ACCESS_KEY = "AKIAFLINKS3BASEKEY";
    private static final String ROLE_ACCESS_KEY = "ASIAFLINKS3ROLEKEY";
    private static final String ROLE_SESSION_TOKEN = "IQoJb3JpZ2luX2VjEflinks3-assumed-role-session-token";

    private LocalSts localSts;
    private WireMockServer sts;

    @BeforeEach
    void startSts() {
        localSts = new LocalSts();
        sts = localSts.server();
        sts.stubFor(post(urlEqualTo("/"))
                .withRequestBody(containing("Action=AssumeRole"))
                .willReturn(aResponse()
                        .withStatus(200)
                        .withHeader("Content-Type", "text/xml")
                        .withBody(stsAnswer())));
    }

    @AfterEach
    void stopSts() {
        localSts.close();
    }

    @Test
    @Timeout(120)
    void theRoleOptionsShapeTheAssumeRoleCallAndItsCredentialsSignEveryRequest() throws Exception {
        try (UnsignedServer unsigned = new UnsignedServer()) {
            unsigned.proxy.stripHeaders("x-amz-security-token");
            Configuration configuration = new Configuration();
            configuration.setString("s3.endpoint", unsigned.proxy.endpoint().toString());
            configuration.setString("s3.path-style-access", "true");
            configuration.setString("s3.region", EmbeddedS3Server.REGION);
            configuration.setString("s3.upload.min.part.size", "5 mb");
            configuration.setString("s3.access-key", BASE_ACCESS_KEY);
            configuration.setString("s3.secret-key", "flinks3-base-secret-key");
            configuration.setString("s3.assume-role.arn", ROLE_ARN);
            configuration.setString("s3.assume-role.external-id", EXTERNAL_ID);
            configuration.setString("s3.assume-role.session-name", SESSION_NAME);
            configuration.setString("s3.assume-role.session-duration", "30 min");
            String bucket = SharedS3ProxyTarget.bucket();

            FileSystemFactory factory = FlinkS3FileSystems.factory("s3", configuration);
            try {
                FileSystemWorkout.run(
                        factory.create(URI.create("s3://" + bucket + "/")),
                        new Path("s3://" + bucket + "/AssumeRoleTest/" + UUID.randomUUID()));
            } finally {
                FlinkS3FileSystems.closeClients(factory);
            }

            sts.verify(postRequestedFor(urlEqualTo("/"))
                    .withRequestBody(containing("Action=AssumeRole"))
                    .withRequestBody(containing("RoleArn=" + URLEncoder.encode(ROLE_ARN, StandardCharsets.UTF_8)))
                    .withRequestBody(containing("ExternalId=" + EXTERNAL_ID))
                    .withRequestBody(containing("RoleSessionName=" + SESSION_NAME))
                    .withRequestBody(containing("DurationSeconds=1800")));
            List<LoggedRequest> assumeRoleCalls = sts.findAll(postRequestedFor(urlEqualTo("/")));
            assertThat(assumeRoleCalls).as("AssumeRole calls").hasSize(1);
            assertThat(assumeRoleCalls.get(0).getHeader("Authorization"))
                    .as("AssumeRole signed with the base keys")
                    .contains("Credential=" + BASE_ACCESS_KEY + "/");
            List<ProxiedRequest> sent = unsigned.proxy.recorded();
            assertThat(sent).hasSizeGreaterThan(10).allSatisfy(request -> {
                assertThat(request.header("x-amz-security-token"))
                        .as("%s", request.kind())
                        .contains(ROLE_SESSION_TOKEN);
                assertThat(request.header("authorization").orElseThrow())
                        .as("%s", request.kind())
                        .contains("Credential=" + ROLE_ACCESS_KEY + "/");
            });
        }
    }

    /** STS's answer: temporary credentials of the role, valid far beyond the test. */
    private static String stsAnswer() {
        return "<AssumeRoleResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
                + "<AssumeRoleResult>"
                + "<Credentials>"
                + "<AccessKeyId>" + ROLE_ACCESS_KEY + "</AccessKeyId>"
                + "<SecretAccessKey>flinks3-role-secret-access-key</SecretAccessKey>"
                + "<SessionToken>" + ROLE_SESSION_TOKEN + "</SessionToken>"
                + "<Expiration>2099-01-01T00:00:00Z</Expiration>"
                + "</Credentials>"
                + "<AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/flink-checkpoints/" + SESSION_NAME
                + "</Arn><AssumedRoleId>AROAEXAMPLE:" + SESSION_NAME + "</AssumedRoleId></AssumedRoleUser>"
                + "</AssumeRoleResult>"
                + "<ResponseMetadata><RequestId>flinks3-sts-stand-in</RequestId></ResponseMetadata>"
                + "</AssumeRoleResponse>";
    }
}
