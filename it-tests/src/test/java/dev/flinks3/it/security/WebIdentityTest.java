package dev.flinks3.it.security;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.it.faults.ProxiedRequest;
import dev.flinks3.testserver.EmbeddedS3Server;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 6, web identity (IRSA on EKS): a filesystem configured with no keys at all, in a process that
 * has only a web-identity token file and a role ARN (what EKS injects), gets the role's temporary
 * credentials from STS and signs its S3 requests with them. STS is a local stand-in (WireMock answering
 * {@code AssumeRoleWithWebIdentity} with fixed credentials); the SDK finds it, the token file and the
 * role through its documented system properties ({@code aws.webIdentityTokenFile}, {@code aws.roleArn},
 * {@code aws.roleSessionName}, {@code aws.endpointUrlSts}). The S3 side is the recording proxy in
 * front of an S3Proxy that checks no signature: S3Proxy 4.1.0 answers 501 to a session token, so the
 * proxy strips it after recording what the filesystem sent.
 */
class WebIdentityTest {

    private static final String ROLE_ARN = "arn:aws:iam::123456789012:role/flink-checkpoints";
    private static final String WEB_IDENTITY_TOKEN = "eyJhbGciOiJSUzI1NiJ9.flinks3-test-service-account-token";
    private static final String STS_ACCESS_KEY_ID = "ASIAFLINKS3IRSATEST";
    private static final String STS_SESSION_TOKEN = "IQoJb3JpZ2luX2VjEflinks3-irsa-session-token";
    private static final List<String> PROPERTIES = List.of(
            "aws.webIdentityTokenFile", "aws.roleArn", "aws.roleSessionName", "aws.endpointUrlSts", "aws.region");

    private final Map<String, String> savedProperties = new HashMap<>();
    private WireMockServer sts;

    @BeforeEach
    void startStsAndPointTheSdkAtIt(@TempDir Path dir) throws Exception {
        sts = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
        sts.start();
        sts.stubFor(post(urlEqualTo("/"))
                .withRequestBody(containing("Action=AssumeRoleWithWebIdentity"))
                .willReturn(aResponse()
                        .withStatus(200)
                        .withHeader("Content-Type", "text/xml")
                        .withBody(stsAnswer())));
        Path tokenFile = Files.writeString(dir.resolve("token"), WEB_IDENTITY_TOKEN);
        PROPERTIES.forEach(name -> savedProperties.put(name, System.getProperty(name)));
        System.setProperty("aws.webIdentityTokenFile", tokenFile.toString());
        System.setProperty("aws.roleArn", ROLE_ARN);
        System.setProperty("aws.roleSessionName", "flinks3-it");
        System.setProperty("aws.endpointUrlSts", "http://127.0.0.1:" + sts.port());
        System.setProperty("aws.region", EmbeddedS3Server.REGION);
    }

    @AfterEach
    void restore() {
        savedProperties.forEach((name, value) -> {
            if (value == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, value);
            }
        });
        sts.stop();
    }

    @Test
    void theDefaultChainTakesTheRolesCredentialsFromTheWebIdentityToken() throws Exception {
        Assumptions.assumeTrue(
                System.getenv("AWS_ACCESS_KEY_ID") == null && System.getProperty("aws.accessKeyId") == null,
                "static AWS keys in this process's environment come first in the SDK's default chain");

        assertRequestsSignedWithTheRolesCredentials(Map.of());
    }

    @Test
    void theWebIdentityProviderCanBeNamedExplicitly() throws Exception {
        assertRequestsSignedWithTheRolesCredentials(Map.of(
                "fs.s3.aws.credentials.provider",
                "software.amazon.awssdk.auth.credentials.WebIdentityTokenFileCredentialsProvider"));
    }

    private void assertRequestsSignedWithTheRolesCredentials(Map<String, String> extra) throws Exception {
        try (UnsignedServer unsigned = new UnsignedServer()) {
            unsigned.proxy.stripHeaders("x-amz-security-token");
            List<ProxiedRequest> sent = runWorkout(unsigned, extra);

            sts.verify(postRequestedFor(urlEqualTo("/"))
                    .withRequestBody(containing("Action=AssumeRoleWithWebIdentity"))
                    .withRequestBody(containing("WebIdentityToken=" + WEB_IDENTITY_TOKEN))
                    .withRequestBody(containing("RoleArn=" + URLEncoder.encode(ROLE_ARN, StandardCharsets.UTF_8))));
            assertThat(sent).hasSizeGreaterThan(10).allSatisfy(request -> {
                assertThat(request.header("x-amz-security-token"))
                        .as("%s", request.kind())
                        .contains(STS_SESSION_TOKEN);
                assertThat(request.header("authorization").orElseThrow())
                        .contains("Credential=" + STS_ACCESS_KEY_ID + "/");
            });
        }
    }

    /** A full workout through a filesystem with no keys configured; returns the S3 requests it sent. */
    private static List<ProxiedRequest> runWorkout(UnsignedServer unsigned, Map<String, String> extra)
            throws Exception {
        Configuration configuration = new Configuration();
        configuration.setString("s3.endpoint", unsigned.proxy.endpoint().toString());
        configuration.setString("s3.path-style-access", "true");
        extra.forEach(configuration::setString);
        String dirKey = "WebIdentityTest/" + UUID.randomUUID();
        org.apache.flink.core.fs.Path dir =
                new org.apache.flink.core.fs.Path("s3://" + SharedS3ProxyTarget.bucket() + "/" + dirKey);

        unsigned.proxy.clearRecorded();
        FileSystemFactory factory = s3Factory();
        factory.configure(configuration);
        try {
            FileSystem fs = factory.create(URI.create("s3://" + SharedS3ProxyTarget.bucket() + "/"));
            FileSystemWorkout.run(fs, dir);
        } finally {
            // Configuring the factory again closes the S3 clients it built.
            factory.configure(new Configuration());
        }
        return unsigned.proxy.recorded();
    }

    /** Our factory as Flink's plugin mechanism finds it: the one registered for {@code s3}. */
    private static FileSystemFactory s3Factory() {
        for (FileSystemFactory factory : ServiceLoader.load(FileSystemFactory.class)) {
            if (factory.getScheme().equals("s3")) {
                return factory;
            }
        }
        throw new AssertionError("no FileSystemFactory for s3 on the test classpath");
    }

    /** STS's answer: temporary credentials of the role, valid far beyond the test. */
    private static String stsAnswer() {
        return "<AssumeRoleWithWebIdentityResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
                + "<AssumeRoleWithWebIdentityResult>"
                + "<Credentials>"
                + "<AccessKeyId>" + STS_ACCESS_KEY_ID + "</AccessKeyId>"
                + "<SecretAccessKey>flinks3-irsa-secret-access-key</SecretAccessKey>"
                + "<SessionToken>" + STS_SESSION_TOKEN + "</SessionToken>"
                + "<Expiration>2099-01-01T00:00:00Z</Expiration>"
                + "</Credentials>"
                + "<SubjectFromWebIdentityToken>system:serviceaccount:flink:flink</SubjectFromWebIdentityToken>"
                + "<AssumedRoleUser><Arn>arn:aws:sts::123456789012:assumed-role/flink-checkpoints/flinks3-it</Arn>"
                + "<AssumedRoleId>AROAEXAMPLE:flinks3-it</AssumedRoleId></AssumedRoleUser>"
                + "<Provider>oidc.eks.us-east-1.amazonaws.com/id/EXAMPLE</Provider>"
                + "<Audience>sts.amazonaws.com</Audience>"
                + "</AssumeRoleWithWebIdentityResult>"
                + "<ResponseMetadata><RequestId>flinks3-sts-stand-in</RequestId></ResponseMetadata>"
                + "</AssumeRoleWithWebIdentityResponse>";
    }
}
