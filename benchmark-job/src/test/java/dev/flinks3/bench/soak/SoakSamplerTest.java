package dev.flinks3.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Which files {@link SoakSampler} counts as temporary files left behind, descriptors and connections. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SoakSamplerTest {

    @TempDir
    Path tmp;

    @Test
    void aFileCountsOnlyOnceItIsOlderThanTheMinimumAge() throws Exception {
        Files.writeString(tmp.resolve("left-behind"), "x");

        assertThat(sampler(Duration.ofHours(1)).temporaryFiles(List.of(tmp))).isZero();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> sampler(Duration.ofMillis(5)).temporaryFiles(List.of(tmp)) == 1);
    }

    @Test
    void aHardLinkOfAnOldFileIsAsYoungAsTheLink() throws Exception {
        // A local RocksDB snapshot hard-links SST files written long before: their modification time is old,
        // the link (the inode's change time) is new.
        Path sst = Files.writeString(tmp.resolve("000071.sst"), "sst");
        Files.setLastModifiedTime(sst, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
        Path snapshot = Files.createDirectories(tmp.resolve("job_op_1_2").resolve("chk-44"));
        Files.createLink(snapshot.resolve("000071.sst"), sst);

        assertThat(SoakSampler.changedMillis(snapshot.resolve("000071.sst")))
                .isGreaterThan(
                        System.currentTimeMillis() - Duration.ofMinutes(10).toMillis());
        assertThat(sampler(Duration.ofHours(1)).temporaryFiles(List.of(tmp))).isZero();
    }

    @Test
    void rocksDbDatabaseFoldersAreLeftOut() throws Exception {
        Path db = Files.createDirectories(tmp.resolve("rocksdb_instance").resolve("db"));
        Files.writeString(db.resolve("000012.sst"), "sst");
        Files.writeString(tmp.resolve("rocksdb_instance").resolve("LOCK"), "");

        await().atMost(Duration.ofSeconds(5))
                .until(() -> sampler(Duration.ofMillis(5)).temporaryFiles(List.of(tmp)) >= 1);
        assertThat(sampler(Duration.ofMillis(5)).temporaryFiles(List.of(tmp))).isEqualTo(1);
    }

    @Test
    void descriptorsOfFilesInARocksDbFolderAreLeftOutAndOthersCount() throws Exception {
        Path proc = Path.of("/proc/self");
        Path db = Files.createDirectories(tmp.resolve("job_op_1").resolve("db"));
        Path sst = Files.writeString(db.resolve("000012.sst"), "sst");
        Path other = Files.writeString(tmp.resolve("spill"), "x");

        try (FileChannel inDb = FileChannel.open(sst);
                FileChannel outside = FileChannel.open(other)) {
            // Counted twice, with and without the temporary folder whose RocksDB folder is left out: only the file
            // in the database folder makes a difference (other threads of this JVM may open files in between).
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> SoakSampler.openFileDescriptors(proc, List.of(), Set.of())
                                    - SoakSampler.openFileDescriptors(proc, List.of(tmp), Set.of())
                            == 1);
        }
    }

    @Test
    void aConnectionToTheEndpointCountsUntilTheProcessClosesItEvenAfterThePeerClosed() throws Exception {
        Path proc = Path.of("/proc/self");
        try (ServerSocket endpoint = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            SoakSampler sampler = new SoakSampler(endpoint.getLocalPort(), Duration.ofSeconds(30));
            assertThat(sampler.endpointSockets(proc).size()).isZero();
            try (Socket client = new Socket(InetAddress.getLoopbackAddress(), endpoint.getLocalPort())) {
                Socket accepted = endpoint.accept();
                // The accepted socket's remote port is the client's, not the endpoint's: it does not count.
                assertThat(sampler.endpointSockets(proc).size()).isEqualTo(1);
                accepted.close();
                // The server closed it; the process still holds it (CLOSE_WAIT): a connection it leaked.
                assertThat(sampler.endpointSockets(proc).size()).isEqualTo(1);
                // Other threads of this JVM (class loading, the test runner) open and close descriptors too: the
                // two counts are compared only where the count of all was the same before and after.
                long all;
                long withoutTheConnection;
                int tries = 0;
                do {
                    all = SoakSampler.openFileDescriptors(proc, List.of(tmp), Set.of());
                    withoutTheConnection =
                            SoakSampler.openFileDescriptors(proc, List.of(tmp), sampler.endpointSockets(proc));
                } while (all != SoakSampler.openFileDescriptors(proc, List.of(tmp), Set.of()) && ++tries < 50);
                assertThat(withoutTheConnection)
                        .as("the connection is a figure of its own, not a descriptor")
                        .isEqualTo(all - 1);
            }
            assertThat(sampler.endpointSockets(proc).size()).isZero();
        }
    }

    private SoakSampler sampler(Duration minAge) {
        return new SoakSampler(1, minAge);
    }
}
