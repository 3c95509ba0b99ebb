package dev.flinks3.it.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.it.FlinkS3FileSystems;
import dev.flinks3.it.SharedS3Proxy;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Files whose keys come near S3's 1,024-byte limit: the keys the plugin derives beside them (a persisted
 * stream's tail object, the probe of {@code If-None-Match}) fit the limit, and where none can, the error is an
 * {@link IOException} naming the length and the limit, before any request.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LongKeysTest {

    /** Directories of 200 bytes each: S3Proxy's filesystem backend stores a key's segments as file names. */
    private static final String DIRECTORY = "long-keys/" + ("d".repeat(199) + "/").repeat(4);

    private static FileSystemFactory factory;
    private static FileSystem fs;

    @BeforeAll
    static void fileSystem() throws IOException {
        // A configuration of its own (a close timeout no other class uses), so this engine has not probed yet.
        factory = FlinkS3FileSystems.factory(
                "s3", SharedS3Proxy.target().flinkConfiguration(Map.of("s3.close.timeout", "17s")));
        fs = factory.create(URI.create("s3://" + SharedS3Proxy.BUCKET + "/"));
    }

    @AfterAll
    static void close() {
        FlinkS3FileSystems.closeClients(factory);
    }

    @Test
    void aPersistedStreamNearTheLimitKeepsItsTailInAKeyThatFits() throws Exception {
        Path path = path(DIRECTORY + "n".repeat(190));
        assertThat(keyBytes(path)).isGreaterThan(S3_LIMIT - 71);
        RecoverableWriter writer = fs.createRecoverableWriter();
        byte[] first = random(1000, 1);
        byte[] second = random(300, 2);

        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(first);
        RecoverableWriter.ResumeRecoverable persisted = out.persist();
        out.close();
        RecoverableFsDataOutputStream recovered = writer.recover(persisted);
        recovered.write(second);
        recovered.closeForCommit().commit();

        assertThat(read(path)).isEqualTo(concat(first, second));
        List<RequestRecord> puts = SharedS3Proxy.server().requestLog().entries(RequestKind.PUT_OBJECT);
        assertThat(puts)
                .filteredOn(put -> put.key().startsWith(DIRECTORY + ".~"))
                .as("the tail object, named by the digest of the file name")
                .isNotEmpty()
                .allSatisfy(put -> assertThat(put.key().getBytes(StandardCharsets.UTF_8).length)
                        .isLessThanOrEqualTo(S3_LIMIT));
    }

    @Test
    void aDirectoryTooLongForAnyTailFailsThePersistWithTheLengthAndTheLimit() throws Exception {
        String deep = DIRECTORY + ("e".repeat(34) + "/").repeat(4);
        Path path = path(deep + "part-0-0-0123456789abcdef");
        RecoverableFsDataOutputStream out = fs.createRecoverableWriter().open(path);
        out.write(random(10, 3));
        long putsBefore = SharedS3Proxy.server().requestLog().count(RequestKind.PUT_OBJECT);

        assertThatThrownBy(out::persist)
                .isInstanceOf(IOException.class)
                .hasMessageContaining("1024 bytes S3 allows")
                .hasMessageContaining("directory alone has " + deep.getBytes(StandardCharsets.UTF_8).length + " bytes");
        assertThat(SharedS3Proxy.server().requestLog().count(RequestKind.PUT_OBJECT))
                .isEqualTo(putsBefore);
        out.close();
    }

    @Test
    void aNoOverwriteWriteNearTheLimitProbesIfNoneMatchBesideIt() throws Exception {
        Path path = path(DIRECTORY + "p".repeat(190));
        byte[] data = random(100, 4);

        try (OutputStream out = fs.create(path, WriteMode.NO_OVERWRITE)) {
            out.write(data);
        }

        assertThat(read(path)).isEqualTo(data);
        assertThat(SharedS3Proxy.server().requestLog().entries(RequestKind.PUT_OBJECT))
                // this test's probes only: the request log holds those of earlier tests too
                .filteredOn(
                        put -> put.key().startsWith(DIRECTORY) && put.key().contains(".flinks3-if-none-match-probe-"))
                .as("the probe of If-None-Match, sent beside the file under a key that fits")
                .isNotEmpty()
                .allSatisfy(put -> assertThat(put.key()).startsWith(DIRECTORY + ".flinks3-if-none-match-probe-"));
    }

    private static final int S3_LIMIT = 1024;

    private static Path path(String key) {
        return new Path("s3://" + SharedS3Proxy.BUCKET + "/" + key);
    }

    private static int keyBytes(Path path) {
        return path.toUri().getPath().substring(1).getBytes(StandardCharsets.UTF_8).length;
    }

    private static byte[] read(Path path) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (InputStream in = fs.open(path)) {
            in.transferTo(bytes);
        }
        return bytes.toByteArray();
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
