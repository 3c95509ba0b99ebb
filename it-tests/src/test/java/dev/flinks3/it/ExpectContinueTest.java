package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code s3.expect-continue.enabled} (S3A's {@code fs.s3a.connection.expect.continue} as its fallback
 * spelling) takes effect: with the default, the PutObject of a file of a few MiB and the UploadParts of
 * a larger one reach the server with {@code Expect: 100-continue} (the SDK leaves it off bodies under
 * 1 MiB); with the switch off, none does, and the files are stored byte-exact either way. The CRT-based
 * S3 client sends it with every UploadPart (and refuses the switch off at creation, tested with the
 * settings).
 */
class ExpectContinueTest extends AbstractS3ProxyFileSystemTest {

    private static final int SMALL = 2 * MIB + 3;
    private static final int TINY = 100_000;
    private static final int LARGE = 11 * MIB + 5;

    @ParameterizedTest(name = "{0}={1}, s3.client: {2}")
    @CsvSource({
        "s3.expect-continue.enabled, true, sdk, true",
        "s3.expect-continue.enabled, false, sdk, false",
        "fs.s3a.connection.expect.continue, false, sdk, false",
        "s3.expect-continue.enabled, true, crt, true"
    })
    @Timeout(120)
    void theUploadsCarryExpectContinueAsTheSwitchSays(String key, String value, String client, boolean sent)
            throws Exception {
        FileSystem configured = FlinkS3FileSystems.create(
                "s3",
                target.bucket(),
                target.flinkConfiguration(Map.of(key, value, "s3.client", client, "s3.upload.min.part.size", "5mb")));
        try {
            Path small = new Path(dir, "small");
            Path large = new Path(dir, "large");
            Path tiny = new Path(dir, "tiny");
            byte[] tinyBytes = randomBytes(TINY, 3);
            byte[] smallBytes = randomBytes(SMALL, 1);
            byte[] largeBytes = randomBytes(LARGE, 2);
            try (FSDataOutputStream out = configured.create(small, WriteMode.NO_OVERWRITE)) {
                out.write(smallBytes);
            }
            try (FSDataOutputStream out = configured.create(large, WriteMode.NO_OVERWRITE)) {
                out.write(largeBytes);
            }
            try (FSDataOutputStream out = configured.create(tiny, WriteMode.NO_OVERWRITE)) {
                out.write(tinyBytes);
            }

            assertThat(objectBytes(small)).isEqualTo(smallBytes);
            assertThat(objectBytes(large)).isEqualTo(largeBytes);
            assertThat(objectBytes(tiny)).isEqualTo(tinyBytes);
            List<RequestRecord> puts = requests(RequestKind.PUT_OBJECT, small);
            List<RequestRecord> parts = requests(RequestKind.UPLOAD_PART, large);
            assertThat(puts).isNotEmpty();
            assertThat(parts).hasSizeGreaterThanOrEqualTo(2);
            if (client.equals("sdk")) {
                assertThat(expectHeaders(puts))
                        .as("Expect headers of the PutObject")
                        .containsOnly(sent ? Optional.of("100-continue") : Optional.empty());
                assertThat(expectHeaders(requests(RequestKind.PUT_OBJECT, tiny)))
                        .as("Expect headers of the PutObject of a body under 1 MiB")
                        .containsOnly(Optional.empty());
            }
            assertThat(expectHeaders(parts))
                    .as("Expect headers of the UploadParts")
                    .containsOnly(sent ? Optional.of("100-continue") : Optional.empty());
        } finally {
            FlinkS3FileSystems.close(configured);
        }
    }

    private List<RequestRecord> requests(RequestKind kind, Path path) {
        return server.requestLog().entries(kind).stream()
                .filter(r -> r.key().equals(key(path)))
                .collect(Collectors.toList());
    }

    private static List<Optional<String>> expectHeaders(List<RequestRecord> requests) {
        return requests.stream().map(r -> r.header("Expect")).collect(Collectors.toList());
    }
}
