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

        BulkDownloader.ranged(client, 2, RANGE_BYTES, 3)
                .download(List.of(
                        BulkDownloader.FileCopy.of(large, existing),
                        BulkDownloader.FileCopy.of(small, localDir.resolve("nested/small")),
                        BulkDownloader.FileCopy.of(empty, localDir.resolve("empty"))));

        assertThat(Files.readAllBytes(existing)).isEqualTo(largeBytes);
        assertThat(Files.readAllBytes(localDir.resolve("nested/small"))).isEqualTo(smallBytes);
        assertThat(localDir.resolve("empty")).isEmptyFile();
        // One GET per range of the large file (11), one each for the others.
        assertThat(client.calls(Operation.GET)).isEqualTo(13);
        assertThat(client.maxInFlight(Operation.GET)).isLessThanOrEqualTo(2 * 3);
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
                BulkDownloader.ranged(client, 1, RANGE_BYTES, 2)
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

        assertThatThrownBy(() -> BulkDownloader.ranged(client, 1, RANGE_BYTES, 1)
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
