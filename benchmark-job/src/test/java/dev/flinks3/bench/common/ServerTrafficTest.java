package dev.flinks3.bench.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestSummary;
import dev.flinks3.testserver.RequestTotals;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Both ways of reading the server (in this JVM, over HTTP) give the same figures, from a real server. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class ServerTrafficTest {

    private static final String BUCKET = "traffic";
    private static final int SIZE = 100_000;

    private static EmbeddedS3Server server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        // Unsigned requests keep this test free of an S3 client; the server counts them all the same.
        server = EmbeddedS3Server.builder()
                .authenticate(false)
                .keepRequestEntries(false)
                .bucket(BUCKET)
                .start();
        byte[] content = new byte[SIZE];
        new Random(7).nextBytes(content);
        server.putObjectDirectly(BUCKET, "object", content);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void getObjectBytesSentAreTheBodiesTheClientReceived() throws Exception {
        ServerTraffic before = ServerTraffic.of(server);

        long received = get(null) + get("bytes=1000-1999") + get("bytes=99000-199999");
        await().atMost(Duration.ofSeconds(10)).until(() -> server.requestLog().inFlight() == 0);
        ServerTraffic during = ServerTraffic.of(server).minus(before);

        assertThat(received).isEqualTo(SIZE + 1000 + 1000);
        assertThat(during.bytesSent(RequestKind.GET_OBJECT)).isEqualTo(received);
        assertThat(during.requestsByOperation()).isEqualTo(Map.of("GetObject", 3L));
        assertThat(during.requests()).isEqualTo(3);
        assertThat(during.cpuNanos())
                .as("this JVM's CPU time, which hosts the server")
                .isPositive();
    }

    @Test
    void overHttpTheServerReadsAsInThisJvm() throws Exception {
        get("bytes=0-99");
        await().atMost(Duration.ofSeconds(10)).until(() -> server.requestLog().inFlight() == 0);

        ServerTraffic fetched = ServerTraffic.fetch(HTTP, server.endpoint(), 42);

        assertThat(fetched.cpuNanos()).isEqualTo(42);
        assertThat(fetched.summary()).isEqualTo(ServerTraffic.of(server).summary());
        assertThat(fetched.bytesSent(RequestKind.GET_OBJECT)).isPositive();
    }

    @Test
    void differencesLeaveOutIdleOperations() {
        ServerTraffic before = new ServerTraffic(
                100,
                new RequestSummary(Map.of(
                        RequestKind.PUT_OBJECT, new RequestTotals(5, 100_000_000, 0),
                        RequestKind.HEAD_OBJECT, new RequestTotals(2, 40_000_000, 0))));
        ServerTraffic after = new ServerTraffic(
                350,
                new RequestSummary(Map.of(
                        RequestKind.PUT_OBJECT, new RequestTotals(8, 160_000_000, 0),
                        RequestKind.HEAD_OBJECT, new RequestTotals(2, 40_000_000, 0),
                        RequestKind.GET_OBJECT, new RequestTotals(1, 25_000_000, 4096))));

        ServerTraffic delta = after.minus(before);

        assertThat(delta.cpuNanos()).isEqualTo(250);
        assertThat(delta.requestsByOperation()).isEqualTo(Map.of("PutObject", 3L, "GetObject", 1L));
        assertThat(delta.requests()).isEqualTo(4);
        assertThat(delta.serveMillisByOperation()).isEqualTo(Map.of("PutObject", 60L, "GetObject", 25L));
        assertThat(delta.bytesSent(RequestKind.GET_OBJECT)).isEqualTo(4096);
        assertThat(delta.bytesSent(RequestKind.HEAD_OBJECT)).isZero();
    }

    /** One unsigned GetObject of the test object; the body's length as received. */
    private static long get(String range) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.endpoint() + "/" + BUCKET + "/object"))
                .timeout(Duration.ofSeconds(30));
        if (range != null) {
            request.header("Range", range);
        }
        HttpResponse<byte[]> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode()).isEqualTo(range == null ? 200 : 206);
        return response.body().length;
    }
}
