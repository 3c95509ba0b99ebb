package dev.flinks3.transfer.bulk;

import static dev.flinks3.transfer.sdk.SdkObjectClientS3ProxyTest.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.TestSettings;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.WriteCondition;
import dev.flinks3.transfer.sdk.S3ClientOwner;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ObjectCopies} against S3Proxy over HTTP: copies inside the store, and a store that refuses them (a filter
 * answers CopyObject with 501 Not Implemented, as some appliances do).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ObjectCopiesS3ProxyTest {

    private static final String BUCKET = "object-copies";
    private static final int MIB = 1024 * 1024;

    private final AtomicInteger keys = new AtomicInteger();
    private EmbeddedS3Server server;
    private S3ClientOwner owner;
    private ObjectClient client;

    @BeforeAll
    void start() {
        server = EmbeddedS3Server.builder().bucket(BUCKET).start();
        owner = new S3ClientOwner(TestSettings.forServer(server, ClientSettings.HttpClientType.CRT)
                .upload(u -> u.partSizeBytes(UploadSettings.MIN_PART_SIZE))
                .build());
        client = owner.objectClient();
    }

    @AfterAll
    void stop() throws Exception {
        try (EmbeddedS3Server stopping = server) {
            owner.close();
        }
    }

    @AfterEach
    void clearRules() {
        server.answers().clear();
    }

    @Test
    void everyObjectIsCopiedInsideTheStore() throws IOException {
        Map<S3Location, byte[]> sources = sources(0, 1, MIB + 3, 6 * MIB + 1);
        List<ObjectCopies.ObjectCopy> copies = copiesOf(sources, true);
        server.requestLog().clear();

        copies(4).copy(copies);

        assertThat(server.requestLog().count(RequestKind.COPY_OBJECT)).isEqualTo(sources.size());
        assertThat(server.requestLog().count(RequestKind.GET_OBJECT)).isZero();
        assertThat(server.requestLog().count(RequestKind.PUT_OBJECT)).isZero();
        assertCopied(copies, sources);
    }

    @Test
    void aStoreThatRefusesCopiesGetsStreamedCopiesFromThenOn() throws IOException {
        Map<S3Location, byte[]> sources = sources(0, MIB + 3, 11 * MIB + 5);
        List<ObjectCopies.ObjectCopy> copies = copiesOf(sources, false);
        AnswerRewriteFilter.Rule refusal = server.answers()
                .refuse(
                        RequestKind.COPY_OBJECT,
                        request -> true,
                        AnswerRewriteFilter.ALWAYS,
                        501,
                        "NotImplemented",
                        "A header you provided implies functionality that is not implemented");
        ObjectCopies objectCopies = copies(4);

        objectCopies.copy(copies);

        assertThat(objectCopies.copiesInStore()).isFalse();
        assertCopied(copies, sources);
        // The 11 MiB object went up in parts of 5 MiB, through one buffer.
        assertThat(server.requestLog().count(RequestKind.UPLOAD_PART)).isEqualTo(3);
        int refusedBefore = refusal.applied();

        List<ObjectCopies.ObjectCopy> again = copiesOf(sources, true);
        objectCopies.copy(again);

        assertThat(refusal.applied())
                .as("no CopyObject once the store refused one")
                .isEqualTo(refusedBefore);
        assertCopied(again, sources);
    }

    @Test
    void aMissingSourceFailsNamingIt() {
        S3Location missing = location("missing");

        assertThatThrownBy(() -> copies(2).copy(List.of(ObjectCopies.ObjectCopy.of(missing, location("t"), 10))))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining(missing.toString());
    }

    private ObjectCopies copies(int inFlight) {
        return new ObjectCopies(
                client,
                inFlight,
                UploadSettings.MIN_PART_SIZE,
                TestSettings.forServer(server, ClientSettings.HttpClientType.CRT)
                        .build()
                        .read());
    }

    private Map<S3Location, byte[]> sources(int... sizes) {
        Map<S3Location, byte[]> sources = new LinkedHashMap<>();
        for (int size : sizes) {
            S3Location location = location("source-" + size);
            byte[] data = randomBytes(size);
            client.put(location, ByteBuffer.wrap(data), WriteCondition.NONE).join();
            sources.put(location, data);
        }
        return sources;
    }

    private List<ObjectCopies.ObjectCopy> copiesOf(Map<S3Location, byte[]> sources, boolean lengthKnown) {
        List<ObjectCopies.ObjectCopy> copies = new ArrayList<>();
        sources.forEach((source, data) ->
                copies.add(ObjectCopies.ObjectCopy.of(source, location("copy"), lengthKnown ? data.length : -1)));
        return copies;
    }

    private void assertCopied(List<ObjectCopies.ObjectCopy> copies, Map<S3Location, byte[]> sources)
            throws IOException {
        for (ObjectCopies.ObjectCopy copy : copies) {
            byte[] expected = sources.get(copy.source());
            assertThat(client.head(copy.target()).length()).isEqualTo(expected.length);
            try (InputStream in = client.get(copy.target(), 0, Math.max(1, expected.length))) {
                assertThat(in.readAllBytes()).as(copy.toString()).isEqualTo(expected);
            }
        }
        assertThat(client.listMultipartUploads(BUCKET, "")).isEmpty();
    }

    private S3Location location(String name) {
        return S3Location.of("s3", BUCKET, "copies/" + name + "-" + keys.incrementAndGet());
    }
}
