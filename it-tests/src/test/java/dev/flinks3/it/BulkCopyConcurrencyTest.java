package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.NetworkProfile;
import dev.flinks3.testserver.RequestKind;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.fs.FileSystemFactory;
import org.apache.flink.core.fs.ICloseableRegistry;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.PathsCopyingFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code s3.bulk-copy.max-concurrent} bounds the files one bulk copy ({@link
 * PathsCopyingFileSystem#copyFiles}, RocksDB restore) downloads at once and shares its GETs among them:
 * eight files of 2 MiB are copied with {@code s3.bulk-copy.range-size: 1 mb} from a server that adds
 * 50 ms to every request. With 1, the server never has GETs of two different files in flight at once,
 * and each file comes in two GETs (a copy of at least as many files as GETs fetches each file's first range,
 * then the rest as that GET's rate says: here one more range); with the default (16) it has GETs of several
 * files in flight together, and each file comes in its two 1 MiB ranges (16 GETs shared by 8 files: 2 lanes
 * each). Every copy is whole.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BulkCopyConcurrencyTest {

    private static final String BUCKET = "bulk-copy-concurrency";
    private static final int FILES = 8;
    private static final int FILE_BYTES = 2 * 1024 * 1024;

    private EmbeddedS3Server server;
    private S3TestTarget target;
    private final List<Path> objects = new ArrayList<>();

    @TempDir
    java.nio.file.Path local;

    @BeforeAll
    void startServerWithFiles() {
        server = EmbeddedS3Server.builder()
                .profile(NetworkProfile.wan(Duration.ofMillis(50), 200_000_000L))
                .bucket(BUCKET)
                .start();
        target = new S3TestTarget(
                "S3Proxy (50 ms)", server.endpoint(), server.accessKey(), server.secretKey(), server.region(), BUCKET);
        for (int i = 0; i < FILES; i++) {
            String key = "state/00000" + i + ".sst";
            server.putObjectDirectly(BUCKET, key, AbstractS3ProxyFileSystemTest.randomBytes(FILE_BYTES, i));
            objects.add(new Path("s3://" + BUCKET + "/" + key));
        }
    }

    @AfterAll
    void stopServer() throws Exception {
        server.close();
    }

    @Test
    @Timeout(60)
    void oneFileAtATimeWithOne() throws Exception {
        assertThat(peakFilesInFlight(Map.of("s3.bulk-copy.max-concurrent", "1"), "one", 2L * FILES))
                .as("files with GETs in flight at once")
                .isEqualTo(1);
    }

    @Test
    @Timeout(60)
    void severalFilesAtOnceWithTheDefault() throws Exception {
        assertThat(peakFilesInFlight(Map.of(), "default", 2L * FILES))
                .as("files with GETs in flight at once")
                .isGreaterThan(1);
    }

    /**
     * Copies every file to {@code subdir} with a filesystem of {@code options}, checking that it took
     * {@code gets} ranged GETs; the most files the server served at once.
     */
    private int peakFilesInFlight(Map<String, String> options, String subdir, long gets) throws Exception {
        Map<String, String> withRanges = new java.util.HashMap<>(options);
        withRanges.put("s3.bulk-copy.range-size", "1 mb");
        FileSystemFactory factory = FlinkS3FileSystems.factory("s3", target.flinkConfiguration(withRanges));
        try {
            PathsCopyingFileSystem fs =
                    (PathsCopyingFileSystem) factory.create(objects.get(0).toUri());
            List<PathsCopyingFileSystem.CopyRequest> copies = new ArrayList<>();
            for (Path object : objects) {
                copies.add(PathsCopyingFileSystem.CopyRequest.of(
                        object,
                        new Path(local.resolve(subdir).resolve(object.getName()).toUri()),
                        FILE_BYTES));
            }
            server.requestLog().clear();

            fs.copyFiles(copies, ICloseableRegistry.NO_OP);

            assertThat(server.requestLog().count(RequestKind.GET_OBJECT))
                    .as("ranged GETs")
                    .isEqualTo(gets);
            for (int i = 0; i < FILES; i++) {
                assertThat(Files.readAllBytes(
                                local.resolve(subdir).resolve(objects.get(i).getName())))
                        .isEqualTo(AbstractS3ProxyFileSystemTest.randomBytes(FILE_BYTES, i));
            }
            return server.requestLog().peakObjectsInFlight(RequestKind.GET_OBJECT);
        } finally {
            FlinkS3FileSystems.closeClients(factory);
        }
    }
}
