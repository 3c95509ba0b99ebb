package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.TestSettings;
import dev.flinks3.transfer.UploadSettings;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A multipart upload to a key XML 1.0 cannot carry is refused before any request. S3 names the key in the XML
 * answers of CreateMultipartUpload and CompleteMultipartUpload; before, S3Proxy answered the create with a 500
 * (a control character) or an answer the SDK could not parse (U+FFFE), the SDK sent it four times, and each time
 * the server could have made an upload that nobody would complete or abort.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class XmlUnsafeKeyUploadS3ProxyTest {

    private static final String BUCKET = "xml-unsafe-uploads";

    private EmbeddedS3Server server;
    private S3ClientOwner owner;

    @BeforeAll
    void start() {
        server = EmbeddedS3Server.builder().bucket(BUCKET).start();
        owner = new S3ClientOwner(
                TestSettings.forServer(server, ClientSettings.HttpClientType.NETTY)
                        .build(),
                UploadSettings.MIN_PART_SIZE,
                UploadSettings.MIN_PART_SIZE);
    }

    @AfterAll
    void stop() throws Exception {
        try (EmbeddedS3Server stopping = server) {
            owner.close();
        }
    }

    @ParameterizedTest
    @CsvSource({"bell-in-a-key\u0007x, U+0007, \\u0007", "non-character\uFFFEkey, U+FFFE, \\uFFFE"})
    void aCreateForAKeyXmlCannotCarryIsRefusedNamingTheCharacter(String name, String character, String printed) {
        ObjectClient client = owner.objectClient();
        S3Location location = S3Location.of("s3", BUCKET, "dir/" + name);
        long createsBefore = server.requestLog().count(RequestKind.CREATE_MULTIPART_UPLOAD);

        Throwable failure =
                catchThrowable(() -> Futures.await(client.createMultipartUpload(location), "create", location));

        assertThat(failure)
                .isInstanceOf(IOException.class)
                .hasMessageContaining(character + " at character 17")
                .hasMessageContaining("dir/" + name.substring(0, 13) + printed + name.substring(14))
                .hasMessageContaining("nothing was sent");
        assertThat(failure.getMessage()).doesNotContain(name.substring(13, 14));
        assertThat(server.requestLog().count(RequestKind.CREATE_MULTIPART_UPLOAD))
                .isEqualTo(createsBefore);
    }
}
