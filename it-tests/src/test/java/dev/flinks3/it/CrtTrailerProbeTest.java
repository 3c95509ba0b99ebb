package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With {@code s3.client: crt}, a server that echoes a CRC32C sent as a header but refuses an {@code
 * aws-chunked} body with a trailing checksum (as Ceph RGW 16.2 does: 400 {@code XAmzContentSHA256Mismatch}
 * to every request with {@code x-amz-trailer}) is found out before a stream is handed to the Transfer
 * Manager, whose client sends every part with a trailer: the probe's PutObject carries a trailer and is
 * refused, and the stream goes up through our engine (header checksums), whole.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CrtTrailerProbeTest extends AbstractS3ProxyFileSystemTest {

    private final List<AnswerRewriteFilter.Rule> refusals = new ArrayList<>();

    @Override
    protected Map<String, String> options() {
        // s3.close.timeout at a value no other test class uses: a client (and a probe answer) of its own.
        return Map.of("s3.client", "crt", "s3.upload.min.part.size", "5mb", "s3.close.timeout", "58 s");
    }

    @Override
    @BeforeAll
    void createFileSystem() throws Exception {
        super.createFileSystem();
        for (RequestKind kind : List.of(RequestKind.PUT_OBJECT, RequestKind.UPLOAD_PART)) {
            refusals.add(server.answers()
                    .refuse(
                            kind,
                            request -> request.getHeader("x-amz-trailer") != null,
                            AnswerRewriteFilter.ALWAYS,
                            400,
                            "XAmzContentSHA256Mismatch",
                            "The provided 'x-amz-content-sha256' header does not match what was computed."));
        }
    }

    @AfterAll
    void clearRules() {
        server.answers().clear();
    }

    @Test
    void aServerThatEchoesHeaderChecksumsButRefusesTrailersGetsTheStreamsThroughOurEngine() throws Exception {
        Path small = new Path(dir, "small");
        write(small, "checked".getBytes(StandardCharsets.UTF_8));
        assertThat(server.requestLog().entries().stream()
                        .filter(r ->
                                r.kind() == RequestKind.PUT_OBJECT && r.key().equals(key(small)))
                        .map(r -> r.header("x-amz-checksum-crc32c"))
                        .toList())
                .as("our engine's PutObject carries its CRC32C as a header, which the server takes")
                .singleElement()
                .satisfies(header -> assertThat(header).isPresent());

        Path large = new Path(dir, "large");
        byte[] data = randomBytes(12 * MIB + 321, 7);
        try (FSDataOutputStream out = fs.create(large, WriteMode.NO_OVERWRITE)) {
            for (int offset = 0; offset < data.length; offset += 64 * 1024) {
                out.write(data, offset, Math.min(64 * 1024, data.length - offset));
            }
        }

        assertThat(readFully(large)).isEqualTo(data);
        assertThat(refusals.get(0).applied())
                .as("the probe's PutObject went with a trailer and was refused")
                .isGreaterThanOrEqualTo(1);
        List<RequestRecord> parts = server.requestLog().entries().stream()
                .filter(r -> r.kind() == RequestKind.UPLOAD_PART && r.key().equals(key(large)))
                .toList();
        assertThat(parts)
                .as("our engine's parts, with header checksums and no trailer")
                .isNotEmpty()
                .allSatisfy(part -> {
                    assertThat(part.header("x-amz-trailer")).isEmpty();
                    assertThat(part.header("x-amz-checksum-crc32c")).isPresent();
                });
        assertThat(refusals.get(1).applied())
                .as("no part with a trailer was sent")
                .isZero();
        assertThat(s3.listObjectsV2(b -> b.bucket(target.bucket()).prefix(key(dir)))
                        .contents())
                .as("no probe object left")
                .extracting(o -> o.key())
                .containsExactlyInAnyOrder(key(small), key(large));
    }
}
