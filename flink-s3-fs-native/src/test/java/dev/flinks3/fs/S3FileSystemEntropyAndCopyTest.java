package dev.flinks3.fs;

import static dev.flinks3.fs.TestFileSystems.BUCKET;
import static dev.flinks3.fs.TestFileSystems.bytes;
import static dev.flinks3.fs.TestFileSystems.fileSystem;
import static dev.flinks3.fs.TestFileSystems.location;
import static dev.flinks3.fs.TestFileSystems.smallParts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.bulk.BulkDownloader;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import dev.flinks3.transfer.fake.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.CloseableRegistry;
import org.apache.flink.core.fs.EntropyInjector;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.OutputStreamAndPath;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.PathsCopyingFileSystem.CopyRequest;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class S3FileSystemEntropyAndCopyTest {

    private final InMemoryObjectClient client = new InMemoryObjectClient();

    @TempDir
    java.nio.file.Path local;

    @Test
    void flinkReplacesTheEntropyKeyWithRandomCharacters() throws IOException {
        S3FileSystem fs =
                fileSystem(client, S3FileSystemSettings.of(smallParts().build()).withEntropy("_e_", 6), null);
        Path withMarker = new Path("s3://bucket/checkpoints/_e_/job/chk-1/data");

        OutputStreamAndPath created = EntropyInjector.createEntropyAware(fs, withMarker, WriteMode.NO_OVERWRITE);
        created.stream().write(bytes("state"));
        created.stream().close();

        String key = client.keys(BUCKET).get(0);
        assertThat(key).matches("checkpoints/[0-9A-Za-z]{6}/job/chk-1/data");
        assertThat(created.path().toUri().getPath()).isEqualTo("/" + key);
        assertThat(EntropyInjector.removeEntropyMarkerIfPresent(fs, withMarker))
                .isEqualTo(new Path("s3://bucket/checkpoints/job/chk-1/data"));
    }

    @Test
    void entropyIsOffWithoutAKey() {
        S3FileSystem fs = fileSystem(client);

        assertThat(fs.getEntropyInjectionKey()).isNull();
        assertThat(EntropyInjector.isEntropyInjecting(fs, new Path("s3://bucket/x")))
                .isFalse();
    }

    @Test
    void generatedEntropyHasTheConfiguredLength() {
        S3FileSystem fs =
                fileSystem(client, S3FileSystemSettings.of(smallParts().build()).withEntropy("_e_", 9), null);

        assertThat(fs.generateEntropy()).matches("[0-9A-Za-z]{9}");
    }

    @Test
    void bulkCopyIsOfferedOnlyFromThisFileSystemToLocalFiles() {
        S3FileSystem fs =
                fileSystem(client, S3FileSystemSettings.of(smallParts().build()), files -> {});
        Path source = new Path("s3://bucket/state/file");

        assertThat(fs.canCopyPaths(source, new Path("file:///tmp/restore/file")))
                .isTrue();
        assertThat(fs.canCopyPaths(source, new Path("/tmp/restore/file"))).isTrue();
        assertThat(fs.canCopyPaths(source, new Path("hdfs://nn/restore/file"))).isFalse();
        assertThat(fs.canCopyPaths(new Path("s3a://bucket/state/file"), new Path("/tmp/x")))
                .isFalse();
    }

    @Test
    void bulkCopyIsNotOfferedWhenDisabledOrUnavailable() {
        S3FileSystemSettings disabled = S3FileSystemSettings.fromConfiguration(
                Configuration.fromMap(java.util.Map.of("s3.bulk-copy.enabled", "false")));
        Path source = new Path("s3://bucket/state/file");
        Path target = new Path("/tmp/restore/file");

        assertThat(fileSystem(client, disabled, files -> {}).canCopyPaths(source, target))
                .isFalse();
        assertThat(fileSystem(client).canCopyPaths(source, target)).isFalse();
    }

    @Test
    void copiesWithinTheBucketAreOfferedAndDoneOnTheServer() throws IOException {
        client.store(location("db/000001.sst"), bytes("first"));
        client.store(location("db/000002.sst"), bytes("second"));
        S3FileSystem fs =
                fileSystem(client, S3FileSystemSettings.of(smallParts().build()), null);
        Path first = new Path("s3://bucket/db/000001.sst");
        Path second = new Path("s3://bucket/db/000002.sst");

        assertThat(fs.canCopyPaths(first, new Path("s3://bucket/chk/shared/a"))).isTrue();
        assertThat(fs.canCopyPaths(first, new Path("s3://other/chk/shared/a"))).isFalse();
        assertThat(fs.canCopyPaths(new Path("s3://other/db/1.sst"), new Path("s3://bucket/chk/a")))
                .isFalse();
        assertThat(fs.canCopyPaths(first, new Path("s3a://bucket/chk/a"))).isFalse();

        fs.copyFiles(
                List.of(
                        CopyRequest.of(first, new Path("s3://bucket/chk/shared/a"), 5),
                        CopyRequest.of(second, new Path("s3://bucket/chk/shared/b"), 6)),
                new CloseableRegistry());

        assertThat(client.calls(Operation.COPY)).isEqualTo(2);
        assertThat(client.calls(Operation.GET)).isZero();
        assertThat(client.bytesOf(location("chk/shared/a"))).isEqualTo(bytes("first"));
        assertThat(client.bytesOf(location("chk/shared/b"))).isEqualTo(bytes("second"));
    }

    @Test
    void copiesWithinTheBucketAreNotOfferedWhenBulkCopyIsDisabled() {
        S3FileSystemSettings disabled = S3FileSystemSettings.fromConfiguration(
                Configuration.fromMap(java.util.Map.of("s3.bulk-copy.enabled", "false")));

        assertThat(fileSystem(client, disabled, null)
                        .canCopyPaths(new Path("s3://bucket/db/1.sst"), new Path("s3://bucket/chk/1")))
                .isFalse();
    }

    @Test
    void copyFilesHandsEveryRequestToTheBulkCopy() throws IOException {
        client.store(location("state/a file"), bytes("first"));
        client.store(location("state/ü+b"), bytes("second"));
        S3FileSystem fs =
                fileSystem(client, S3FileSystemSettings.of(smallParts().build()), this::copyFromFake);
        java.nio.file.Path first = local.resolve("x/a file");
        java.nio.file.Path second = local.resolve("y/ü+b");

        fs.copyFiles(
                List.of(
                        CopyRequest.of(new Path("s3", BUCKET, "/state/a file"), new Path(first.toUri()), 5),
                        CopyRequest.of(new Path("s3", BUCKET, "/state/ü+b"), new Path(second.toString()), 6)),
                new CloseableRegistry());

        assertThat(Files.readAllBytes(first)).isEqualTo(bytes("first"));
        assertThat(Files.readAllBytes(second)).isEqualTo(bytes("second"));
    }

    @Test
    void closingTheRegistryCancelsARunningCopy() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        S3FileSystem fs =
                fileSystem(client, S3FileSystemSettings.of(smallParts().build()), files -> {
                    started.countDown();
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        throw new InterruptedIOException("cancelled");
                    }
                });
        CloseableRegistry registry = new CloseableRegistry();
        CompletableFuture<Void> copy = CompletableFuture.runAsync(() -> {
            try {
                fs.copyFiles(List.of(CopyRequest.of(new Path("s3://bucket/f"), new Path("/tmp/f"), 1)), registry);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        registry.close();

        Awaitility.await().atMost(Duration.ofSeconds(10)).until(copy::isDone);
        assertThatThrownBy(copy::join).hasRootCauseInstanceOf(InterruptedIOException.class);
    }

    @Test
    void aFailedCopyReportsTheMissingObject() {
        S3FileSystem fs =
                fileSystem(client, S3FileSystemSettings.of(smallParts().build()), this::copyFromFake);

        assertThatThrownBy(() -> fs.copyFiles(
                        List.of(CopyRequest.of(
                                new Path("s3://bucket/gone"),
                                new Path(local.resolve("g").toUri()),
                                1)),
                        new CloseableRegistry()))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("s3://bucket/gone");
    }

    /** A stand-in for the Transfer Manager: copies from the fake through the object client. */
    private void copyFromFake(List<BulkDownloader.FileCopy> files) throws IOException {
        for (BulkDownloader.FileCopy file : files) {
            byte[] data = client.bytesOf(file.source());
            if (data == null) {
                throw new FileNotFoundException("No object at " + file.source());
            }
            Files.createDirectories(file.target().getParent());
            Files.write(file.target(), data);
        }
    }
}
