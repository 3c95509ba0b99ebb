package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.GetAnswer;
import dev.flinks3.transfer.GetRequest;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.TestSettings;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.SdkGlobalTime;

/**
 * A server whose clock is an hour ahead of this machine's, at the HTTP boundary: a filter refuses every GET signed
 * more than S3's 15 minutes away from the server's time with 403 {@code RequestTimeTooSkewed}, its {@code Date}
 * header telling the server's time (S3Proxy itself checks no signature here). The SDK corrects its clock from that
 * answer; the direct GETs of positional reads sign with the same correction, so after the first read each read is
 * one GET again, not a refused direct GET and a second one through the SDK.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClockSkewS3ProxyTest {

    private static final String BUCKET = "skewed";
    private static final Duration SERVER_AHEAD = Duration.ofHours(1);
    private static final Duration ALLOWED_SKEW = Duration.ofMinutes(15);
    private static final DateTimeFormatter AMZ_DATE =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final byte[] data = new byte[64 * 1024];
    private EmbeddedS3Server server;
    private S3ClientOwner owner;
    private ObjectClient client;

    @BeforeAll
    void start() {
        SdkGlobalTime.setGlobalTimeOffset(0);
        new Random(5).nextBytes(data);
        server = EmbeddedS3Server.builder().bucket(BUCKET).authenticate(false).start();
        server.putObjectDirectly(BUCKET, "state", data);
        owner = new S3ClientOwner(TestSettings.forServer(server, ClientSettings.HttpClientType.NETTY)
                .build());
        client = owner.objectClient();
    }

    @AfterAll
    void stop() throws Exception {
        // The SDK's correction is process-wide: other tests' servers keep this machine's time.
        SdkGlobalTime.setGlobalTimeOffset(0);
        try (EmbeddedS3Server stopping = server) {
            owner.close();
        }
    }

    @Test
    void afterTheFirstRefusalEveryPositionalReadIsOneDirectGet() throws Exception {
        AnswerRewriteFilter.Rule refusals = server.answers()
                .answer(
                        RequestKind.GET_OBJECT,
                        ClockSkewS3ProxyTest::signedTooFarFromTheServersClock,
                        AnswerRewriteFilter.ALWAYS,
                        AnswerRewriteFilter.Answer.error(
                                        403,
                                        "RequestTimeTooSkewed",
                                        "The difference between the request time and the current time is too large.")
                                .withHeader("Date", serverDate()));
        S3Location location = S3Location.of("s3", BUCKET, "state");

        read(location, 0);
        assertThat(refusals.applied())
                .as("the first read is refused, and corrected")
                .isPositive();
        int refusedAtFirst = refusals.applied();
        server.requestLog().clear();

        for (int i = 1; i <= 20; i++) {
            read(location, i * 1000L);
        }

        List<RequestRecord> gets = server.requestLog().entries(RequestKind.GET_OBJECT);
        assertThat(refusals.applied()).as("refused GETs after the first read").isEqualTo(refusedAtFirst);
        assertThat(gets)
                .hasSize(20)
                .allSatisfy(get -> assertThat(get.header("User-Agent")).contains(DirectRangedGet.USER_AGENT));
    }

    private void read(S3Location location, long at) throws Exception {
        ByteBuffer dst = ByteBuffer.allocateDirect(4096);
        GetAnswer read =
                client.get(GetRequest.into(location, at, dst).waiting()).get(30, TimeUnit.SECONDS);
        assertThat(read.bytes()).isEqualTo(4096);
        byte[] bytes = new byte[4096];
        dst.get(0, bytes);
        assertThat(bytes).isEqualTo(Arrays.copyOfRange(data, (int) at, (int) at + 4096));
    }

    private static boolean signedTooFarFromTheServersClock(HttpServletRequest request) {
        String signedAt = request.getHeader("x-amz-date");
        if (signedAt == null) {
            return true;
        }
        Instant signed = Instant.from(AMZ_DATE.parse(signedAt));
        Duration skew =
                Duration.between(signed, Instant.now().plus(SERVER_AHEAD)).abs();
        return skew.compareTo(ALLOWED_SKEW) > 0;
    }

    private static String serverDate() {
        return DateTimeFormatter.RFC_1123_DATE_TIME
                .withZone(ZoneOffset.UTC)
                .format(Instant.now().plus(SERVER_AHEAD));
    }
}
