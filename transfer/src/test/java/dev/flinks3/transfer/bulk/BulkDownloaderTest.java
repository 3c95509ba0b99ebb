package dev.flinks3.transfer.bulk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.fake.Fault;
import dev.flinks3.transfer.fake.Gate;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import dev.flinks3.transfer.fake.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link BulkDownloader#ranged} on the in-memory {@link ObjectClient}: ranges, If-Match and clean-up. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BulkDownloaderTest {

    private static final int RANGE_BYTES = 1000;

    private final ExecutorService executor = Executors.newFixedThreadPool(4);

    @TempDir
    Path localDir;

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    @Test
    void reassemblesEveryFileFromItsRanges() throws IOException {
        InMemoryObjectClient client = new InMemoryObjectClient(executor);
        S3Location large = S3Location.of("s3", "bucket", "state/large");
        S3Location small = S3Location.of("s3", "bucket", "state/small");
        S3Location empty = S3Location.of("s3", "bucket", "state/empty");
        byte[] largeBytes = bytes(10 * RANGE_BYTES + 7);
        byte[] smallBytes = bytes(RANGE_BYTES - 1);
        client.store(large, largeBytes);
        client.store(small, smallBytes);
        client.store(empty, new byte[0]);
        Path existing = localDir.resolve("large");
        Files.write(existing, bytes(20 * RANGE_BYTES));

        // 6 GETs for 3 files: 2 lanes each, in ranges of RANGE_BYTES.
        BulkDownloader.ranged(client, 6, RANGE_BYTES, 3)
                .download(List.of(
                        BulkDownloader.FileCopy.of(large, existing),
                        BulkDownloader.FileCopy.of(small, localDir.resolve("nested/small")),
                        BulkDownloader.FileCopy.of(empty, localDir.resolve("empty"))));

        assertThat(Files.readAllBytes(existing)).isEqualTo(largeBytes);
        assertThat(Files.readAllBytes(localDir.resolve("nested/small"))).isEqualTo(smallBytes);
        assertThat(localDir.resolve("empty")).isEmptyFile();
        // One GET per range of the large file (11), one each for the others.
        assertThat(client.calls(Operation.GET)).isEqualTo(13);
        assertThat(client.maxInFlight(Operation.GET)).isLessThanOrEqualTo(6);
    }

    @Test
    void aCopyOfAtLeastGetsInFlightFilesOnAFastConnectionFetchesEachFileInTwoGets() throws IOException {
        InMemoryObjectClient client = new InMemoryObjectClient(executor);
        List<BulkDownloader.FileCopy> copies = threeFiles(client);

        BulkDownloader.ranged(client, 2, RANGE_BYTES, 4, BulkDownloader.SINGLE_LANE_RANGE_BYTES, 0)
                .download(copies);

        assertCopied(copies);
        // The first range, then the rest of each file (smaller than a single-lane range) in one GET; never more
        // than 2 GETs at once.
        assertThat(client.calls(Operation.GET)).isEqualTo(6);
        assertThat(client.maxInFlight(Operation.GET)).isLessThanOrEqualTo(2);
    }

    @Test
    void aCopyOfAtLeastGetsInFlightFilesOnASlowConnectionSplitsThemToFillTheLink() throws IOException {
        InMemoryObjectClient client = new InMemoryObjectClient(executor);
        List<BulkDownloader.FileCopy> copies = threeFiles(client);
        client.resetCounters();

        BulkDownloader.ranged(client, 2, RANGE_BYTES, 4, BulkDownloader.SINGLE_LANE_RANGE_BYTES, Long.MAX_VALUE)
                .download(copies);

        assertCopied(copies);
        // Every file in ranges of RANGE_BYTES (6 each), on up to 4 lanes per file, 2 files at once.
        assertThat(client.calls(Operation.GET)).isEqualTo(18);
        assertThat(client.maxInFlight(Operation.GET)).isLessThanOrEqualTo(8);
    }

    private List<BulkDownloader.FileCopy> threeFiles(InMemoryObjectClient client) {
        List<BulkDownloader.FileCopy> copies = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            S3Location location = S3Location.of("s3", "bucket", "state/file-" + i);
            client.store(location, bytes(5 * RANGE_BYTES + 3 + i));
            copies.add(BulkDownloader.FileCopy.of(location, localDir.resolve("file-" + i)));
        }
        return copies;
    }

    private static void assertCopied(List<BulkDownloader.FileCopy> copies) throws IOException {
        for (int i = 0; i < copies.size(); i++) {
            assertThat(Files.readAllBytes(copies.get(i).target())).isEqualTo(bytes(5 * RANGE_BYTES + 3 + i));
        }
    }

    @Test
    void aCopyOfFewerFilesSplitsThemIntoRangesOnParallelLanes() throws IOException {
        InMemoryObjectClient client = new InMemoryObjectClient(executor);
        S3Location location = S3Location.of("s3", "bucket", "state/only");
        byte[] content = bytes(10 * RANGE_BYTES + 7);
        client.store(location, content);
        Path target = localDir.resolve("only");

        BulkDownloader.ranged(client, 4, RANGE_BYTES, 4)
                .download(List.of(BulkDownloader.FileCopy.of(location, target)));

        assertThat(Files.readAllBytes(target)).isEqualTo(content);
        assertThat(client.calls(Operation.GET)).isEqualTo(11);
        assertThat(client.maxInFlight(Operation.GET)).isLessThanOrEqualTo(4);
    }

    @Test
    void lanesShareTheGetsInFlightAmongTheFilesDownloadingAtOnce() {
        assertThat(BulkDownloader.lanesPerFile(16, 16, 4)).isEqualTo(1);
        assertThat(BulkDownloader.lanesPerFile(16, 100, 4)).isEqualTo(1);
        assertThat(BulkDownloader.lanesPerFile(16, 5, 4)).isEqualTo(3);
        assertThat(BulkDownloader.lanesPerFile(16, 4, 4)).isEqualTo(4);
        assertThat(BulkDownloader.lanesPerFile(16, 1, 4)).isEqualTo(4);
        assertThat(BulkDownloader.lanesPerFile(16, 0, 4)).isEqualTo(4);
        assertThat(BulkDownloader.lanesPerFile(1, 1, 1)).isEqualTo(1);
    }

    @Test
    void countsBelowOneAreRefused() {
        InMemoryObjectClient client = new InMemoryObjectClient();
        assertThatThrownBy(() -> BulkDownloader.ranged(client, 0, RANGE_BYTES, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("GETs in flight (0)");
        assertThatThrownBy(() -> BulkDownloader.ranged(client, 1, RANGE_BYTES, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lanes per file (0)");
    }

    @Test
    void objectReplacedMidDownloadFailsNamingItAndLeavesNoFile() throws Exception {
        InMemoryObjectClient client = new InMemoryObjectClient(executor);
        S3Location location = S3Location.of("s3", "bucket", "state/replaced");
        client.store(location, bytes(5 * RANGE_BYTES));
        Path target = localDir.resolve("replaced");
        Gate gets = client.gate(Operation.GET);
        gets.close();

        CompletableFuture<Void> download = CompletableFuture.runAsync(() -> {
            try {
                BulkDownloader.ranged(client, 2, RANGE_BYTES, 2)
                        .download(List.of(BulkDownloader.FileCopy.of(location, target)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gets.held() == 1);
        gets.releaseOne();
        // The first range came from the first version; the two lanes wait with its ETag.
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> gets.held() == 2);
        client.store(location, bytes(5 * RANGE_BYTES + 1));
        gets.open();

        assertThatThrownBy(download::join)
                .isInstanceOf(CompletionException.class)
                .cause()
                .cause()
                .isInstanceOfSatisfying(
                        S3RequestException.class,
                        e -> assertThat(e.statusCode()).isEqualTo(412))
                .hasMessageContaining(location.toString())
                .hasMessageContaining("The object changed while it was read");
        assertThat(target).doesNotExist();
    }

    @Test
    void failedRangeDeletesThePartialFileAndKeepsCompleteOnes() throws IOException {
        InMemoryObjectClient client = new InMemoryObjectClient();
        S3Location complete = S3Location.of("s3", "bucket", "state/complete");
        S3Location broken = S3Location.of("s3", "bucket", "state/broken");
        byte[] completeBytes = bytes(2 * RANGE_BYTES);
        client.store(complete, completeBytes);
        client.store(broken, bytes(4 * RANGE_BYTES));
        // GETs 1-2 download the first file; GET 4 is the second range of the second, broken mid-body.
        client.inject(
                Fault.on(Operation.GET).atCall(4).afterBytes(100).failingWith(new IOException("Connection reset")));
        Path brokenTarget = localDir.resolve("broken");

        assertThatThrownBy(() -> BulkDownloader.ranged(client, 1, RANGE_BYTES, 1, RANGE_BYTES)
                        .download(List.of(
                                BulkDownloader.FileCopy.of(complete, localDir.resolve("complete")),
                                BulkDownloader.FileCopy.of(broken, brokenTarget))))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Connection reset");

        assertThat(brokenTarget).doesNotExist();
        assertThat(Files.readAllBytes(localDir.resolve("complete"))).isEqualTo(completeBytes);
    }

    @Test
    void missingObjectFailsNamingIt() {
        InMemoryObjectClient client = new InMemoryObjectClient();
        S3Location missing = S3Location.of("s3", "bucket", "state/missing");
        Path target = localDir.resolve("missing");

        assertThatThrownBy(() -> BulkDownloader.ranged(client, 1, RANGE_BYTES, 2)
                        .download(List.of(BulkDownloader.FileCopy.of(missing, target))))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining(missing.toString());
        assertThat(target).doesNotExist();
    }

    private static byte[] bytes(int length) {
        byte[] bytes = new byte[length];
        new Random(length).nextBytes(bytes);
        return bytes;
    }
}
