package dev.flinks3.testserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;

/** The server checks the trailing CRC32C of aws-chunked uploads, as S3 does. */
class TrailingChecksumTest {

    private static final String BUCKET = "checksums";
    private static EmbeddedS3Server server;
    private static S3Client s3;

    @BeforeAll
    static void start() {
        server = EmbeddedS3Server.builder()
                .verifyTrailingChecksums(true)
                .bucket(BUCKET)
                .start();
        s3 = TestClients.s3(server);
    }

    @AfterAll
    static void stop() throws Exception {
        s3.close();
        server.close();
    }

    @Test
    void withoutVerificationACorruptedBodyIsStoredAsS3Proxy41DoesIt() throws Exception {
        try (EmbeddedS3Server plain =
                EmbeddedS3Server.builder().authenticate(false).bucket(BUCKET).start()) {
            byte[] data = "the bytes the client meant".getBytes(StandardCharsets.UTF_8);
            byte[] corrupted = data.clone();
            corrupted[3] ^= 1;

            HttpResponse<String> answer = put(plain, "stored", chunked(corrupted, crc32c(data)), data.length);

            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        }
    }

    @Test
    void decodesChunksAndTrailers() throws IOException {
        byte[] body = chunked("hello world".getBytes(StandardCharsets.UTF_8), "AAAAAA==");
        CRC32C crc = new CRC32C();

        AwsChunkedBody decoded = AwsChunkedBody.decode(body, crc);

        assertThat(decoded.decodedLength()).isEqualTo(11);
        assertThat(decoded.trailer("X-Amz-Checksum-Crc32c")).isEqualTo("AAAAAA==");
        CRC32C expected = new CRC32C();
        expected.update("hello world".getBytes(StandardCharsets.UTF_8));
        assertThat(crc.getValue()).isEqualTo(expected.getValue());
    }

    @Test
    void malformedFramingIsRejected() {
        assertThatThrownBy(() -> AwsChunkedBody.decode("zz\r\nabc".getBytes(StandardCharsets.US_ASCII), new CRC32C()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("zz");
    }

    @Test
    void theSdksChunkedUploadsWithCrc32cPass() {
        s3.putObject(
                b -> b.bucket(BUCKET).key("sdk").checksumAlgorithm(ChecksumAlgorithm.CRC32_C),
                RequestBody.fromBytes(new byte[300_000]));

        assertThat(s3.headObject(b -> b.bucket(BUCKET).key("sdk")).contentLength())
                .isEqualTo(300_000);
    }

    @Test
    void aBodyThatDoesNotMatchItsTrailerIsAnsweredBadDigestAndNotStored() throws Exception {
        byte[] data = "the bytes the client meant".getBytes(StandardCharsets.UTF_8);
        byte[] corrupted = data.clone();
        corrupted[3] ^= 1;

        HttpResponse<String> answer = put(server, "corrupted", chunked(corrupted, crc32c(data)), data.length);

        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(answer.body()).contains("<Code>BadDigest</Code>");
        assertThat(s3.listObjectsV2(b -> b.bucket(BUCKET).prefix("corrupted")).contents())
                .isEmpty();
    }

    @Test
    void aMatchingBodyIsPassedOnToS3Proxy() throws Exception {
        byte[] data = "intact".getBytes(StandardCharsets.UTF_8);

        HttpResponse<String> answer = put(server, "unsigned", chunked(data, crc32c(data)), data.length);

        // S3Proxy itself now answers: the request carries no signature.
        assertThat(answer.statusCode()).isEqualTo(403);
    }

    /**
     * A PUT as the SDK sends one, with the decoded length: S3Proxy 4.1.0 then reads exactly that many
     * data bytes and never the trailer.
     */
    private static HttpResponse<String> put(EmbeddedS3Server target, String key, byte[] body, int decodedLength)
            throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(target.endpoint() + "/" + BUCKET + "/" + key))
                .header("x-amz-decoded-content-length", String.valueOf(decodedLength))
                .header("x-amz-content-sha256", "STREAMING-UNSIGNED-PAYLOAD-TRAILER")
                .header("x-amz-trailer", "x-amz-checksum-crc32c")
                .header("Content-Encoding", "aws-chunked")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static byte[] chunked(byte[] data, String crc32c) {
        String head = Integer.toHexString(data.length) + "\r\n";
        String tail = "\r\n0\r\nx-amz-checksum-crc32c:" + crc32c + "\r\n\r\n";
        ByteBuffer body = ByteBuffer.allocate(head.length() + data.length + tail.length());
        body.put(head.getBytes(StandardCharsets.US_ASCII)).put(data).put(tail.getBytes(StandardCharsets.US_ASCII));
        return body.array();
    }

    private static String crc32c(byte[] data) {
        CRC32C crc = new CRC32C();
        crc.update(data);
        return Base64.getEncoder()
                .encodeToString(
                        ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }
}
