package dev.flinks3.it.answers;

import static dev.flinks3.it.answers.RewrittenAnswersServer.write;
import static dev.flinks3.testserver.AnswerRewriteFilter.ALWAYS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.testserver.AnswerRewriteFilter.Answer;
import dev.flinks3.testserver.RequestKind;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.junit.jupiter.api.Test;

/**
 * Issues 43 and 45, answers that refuse who signed a request, where or when, each as S3 sends it and each
 * naming what to change: a HEAD of a missing key answered 403 for want of {@code s3:ListBucket} (so {@code
 * exists}, {@code mkdirs} and {@code create} fail), an {@code AccessDenied} naming the IAM action of the
 * request that failed, a signature mismatch, a clock skew with its offset, and a bucket in another region
 * with that region. The server is S3Proxy behind its answer-rewrite filter; the refusals never reach it.
 */
class RefusedRequestsTest extends AnswersFileSystemTest {

    RefusedRequestsTest() {
        super(Map.of("s3.conditional-writes.enabled", "false", "s3.retry.max-num-retries", "1"));
    }

    @Test
    void aHeadOfAMissingKeyAnswered403NamesListBucketForExistsMkdirsAndCreate() {
        // S3 answers so for a key that does not exist when the caller lacks s3:ListBucket: no body, no code.
        server.answers().answer(RequestKind.HEAD_OBJECT, this::underBase, ALWAYS, new Answer(403, new byte[0]));

        for (Throwable failure : new Throwable[] {
            catchThrowable(() -> fs.exists(path("missing"))),
            catchThrowable(() -> fs.mkdirs(path("new-dir"))),
            catchThrowable(() -> fs.create(path("new-file"), WriteMode.NO_OVERWRITE))
        }) {
            assertThat(failure)
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("HTTP 403")
                    .hasMessageContaining("s3:ListBucket on arn:aws:s3:::" + RewrittenAnswersServer.BUCKET);
        }
    }

    @Test
    void accessDeniedNamesTheIamActionOfTheRequestThatFailed() {
        server.answers()
                .refuse(
                        RequestKind.LIST_OBJECTS_V2,
                        this::prefixUnderBase,
                        ALWAYS,
                        403,
                        "AccessDenied",
                        "Access Denied");
        server.answers().refuse(RequestKind.PUT_OBJECT, this::underBase, ALWAYS, 403, "AccessDenied", "Access Denied");

        assertThat(catchThrowable(() -> fs.listStatus(path("dir"))))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("AccessDenied")
                .hasMessageContaining("s3:ListBucket on arn:aws:s3:::" + RewrittenAnswersServer.BUCKET);
        assertThat(catchThrowable(() -> write(fs, path("denied"), bytes("x"), WriteMode.OVERWRITE)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(
                        "s3:PutObject on arn:aws:s3:::" + RewrittenAnswersServer.BUCKET + "/" + base + "/denied");
    }

    @Test
    void aSignatureMismatchNamesTheSecretKeyAndWhatMayChangeARequest() {
        server.answers()
                .refuse(
                        RequestKind.PUT_OBJECT,
                        this::underBase,
                        ALWAYS,
                        403,
                        "SignatureDoesNotMatch",
                        "The request signature we calculated does not match the signature you provided.");

        assertThat(catchThrowable(() -> write(fs, path("signed"), bytes("x"), WriteMode.OVERWRITE)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("SignatureDoesNotMatch")
                .hasMessageContaining("s3.secret-key")
                .hasMessageContaining("proxy");
    }

    @Test
    void aClockSkewSaysByHowMuch() {
        Instant requestTime = Instant.now();
        Instant serverTime = requestTime.plus(Duration.ofMinutes(20)).plusSeconds(7);
        String body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>RequestTimeTooSkewed</Code>"
                + "<Message>The difference between the request time and the current time is too large.</Message>"
                + "<RequestTime>"
                + DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
                        .withZone(ZoneOffset.UTC)
                        .format(requestTime)
                + "</RequestTime><ServerTime>" + serverTime.truncatedTo(ChronoUnit.SECONDS)
                + "</ServerTime><MaxAllowedSkewMilliseconds>900000</MaxAllowedSkewMilliseconds>"
                + "<RequestId>refused</RequestId></Error>";
        // The answer's Date is the server's clock, as S3 sends it.
        server.answers()
                .answer(
                        RequestKind.PUT_OBJECT,
                        this::underBase,
                        ALWAYS,
                        new Answer(403, body.getBytes(StandardCharsets.UTF_8))
                                .withHeader(
                                        "Date",
                                        DateTimeFormatter.RFC_1123_DATE_TIME.format(
                                                serverTime.atZone(ZoneOffset.UTC))));

        assertThat(catchThrowable(() -> write(fs, path("skewed"), bytes("x"), WriteMode.OVERWRITE)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("RequestTimeTooSkewed")
                .hasMessageMatching("(?s).*The server's clock is 120[4-7] s ahead of.*")
                .hasMessageContaining("NTP");
    }

    @Test
    void aBucketInAnotherRegionNamesThatRegion() {
        String body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>AuthorizationHeaderMalformed</Code>"
                + "<Message>The authorization header is malformed; the region 'us-east-1' is wrong; expecting"
                + " 'eu-central-1'</Message><Region>eu-central-1</Region><RequestId>refused</RequestId></Error>";
        server.answers()
                .answer(
                        RequestKind.PUT_OBJECT,
                        this::underBase,
                        ALWAYS,
                        new Answer(400, body.getBytes(StandardCharsets.UTF_8)));

        // A HEAD has no body: S3 redirects it, naming the region in a header.
        server.answers()
                .answer(
                        RequestKind.HEAD_OBJECT,
                        this::underBase,
                        ALWAYS,
                        new Answer(301, new byte[0]).withHeader("x-amz-bucket-region", "eu-central-1"));

        assertThat(catchThrowable(() -> write(fs, path("elsewhere"), bytes("x"), WriteMode.OVERWRITE)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("AuthorizationHeaderMalformed")
                .hasMessageContaining("s3.region: eu-central-1")
                .hasMessageContaining("s3.bucket." + RewrittenAnswersServer.BUCKET + ".region: eu-central-1");
        assertThat(catchThrowable(() -> fs.exists(path("elsewhere"))))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("HTTP 301")
                .hasMessageContaining("s3.region: eu-central-1");
    }

    private boolean underBase(HttpServletRequest request) {
        return request.getRequestURI().startsWith("/" + RewrittenAnswersServer.BUCKET + "/" + base + "/");
    }

    private boolean prefixUnderBase(HttpServletRequest request) {
        String prefix = request.getParameter("prefix");
        return prefix != null && prefix.startsWith(base + "/");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
