package dev.flinks3.it.copy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.it.S3TestTarget;
import dev.flinks3.it.faults.Fault;
import dev.flinks3.it.faults.FaultInjectingProxy;
import dev.flinks3.it.faults.FaultRule;
import dev.flinks3.it.faults.ProxiedFileSystem;
import dev.flinks3.testserver.RequestKind;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.CloseableRegistry;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.PathsCopyingFileSystem;
import org.apache.flink.core.fs.PathsCopyingFileSystem.CopyRequest;
import org.apache.flink.runtime.state.StreamStateHandle;
import org.apache.flink.runtime.state.filesystem.FileStateHandle;
import org.apache.flink.runtime.state.filesystem.FsCheckpointStateToolset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Copies within the store through Flink's {@link PathsCopyingFileSystem}, as ForSt's checkpoints and savepoints ask
 * for them (Flink's {@link FsCheckpointStateToolset}: {@code canCopyPaths}, then {@code copyFiles} of the SST files
 * from ForSt's working directory into the checkpoint's shared directory): server-side copies, no byte through the
 * client; a store that refuses them (a proxy answers CopyObject with 501) gets streamed copies after one warning;
 * a cancelled copy stops. One subclass per server; a {@link FaultInjectingProxy} in front records the requests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class AbstractStoreCopyTest {

    private static final int MIB = 1024 * 1024;

    private FaultInjectingProxy proxy;
    private ProxiedFileSystem fileSystem;
    private FileSystem fs;
    private Path dir;

    /** The server: its endpoint, keys, region and bucket. */
    protected abstract S3TestTarget target();

    @BeforeAll
    void start() {
        proxy = new FaultInjectingProxy(target().endpoint());
    }

    @AfterAll
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    /** A filesystem of its own per test: one that met a store refusing copies streams them from then on. */
    @BeforeEach
    void freshFileSystemAndDirectory() {
        fileSystem = ProxiedFileSystem.create(proxy, target().flinkConfiguration(), target().bucket(), Map.of());
        fs = fileSystem.fs();
        dir = new Path("s3://" + target().bucket() + "/" + getClass().getSimpleName() + "/" + UUID.randomUUID());
        proxy.clear();
        proxy.clearRecorded();
    }

    @AfterEach
    void deleteTestData() throws Exception {
        proxy.clear();
        try {
            fs.delete(dir, true);
        } finally {
            fileSystem.close();
        }
    }

    @Test
    void copiesWithinTheBucketAndToLocalDiskButNotToAnotherBucket() throws IOException {
        Path object = new Path(dir, "db/000001.sst");
        PathsCopyingFileSystem copying = (PathsCopyingFileSystem) fs;

        assertThat(copying.canCopyPaths(object, new Path(dir, "chk/shared/a"))).isTrue();
        assertThat(copying.canCopyPaths(object, new Path("file:///tmp/restore/000001.sst")))
                .isTrue();
        assertThat(copying.canCopyPaths(object, new Path("s3://another-bucket/chk/a")))
                .isFalse();
        assertThat(copying.canCopyPaths(new Path("s3://another-bucket/db/1.sst"), new Path(dir, "chk/a")))
                .isFalse();
        assertThat(proxy.recorded()).as("requests").isEmpty();
    }

    @Test
    void aCheckpointDuplicatesItsFilesInsideTheStore() throws Exception {
        List<StreamStateHandle> handles = new ArrayList<>();
        List<byte[]> contents = new ArrayList<>();
        int[] sizes = {0, 4096, 3 * MIB + 11};
        for (int i = 0; i < sizes.length; i++) {
            byte[] data = bytes(sizes[i], i);
            Path sst = new Path(dir, "db/00000" + i + ".sst");
            write(sst, data);
            handles.add(new FileStateHandle(sst, data.length));
            contents.add(data);
        }
        FsCheckpointStateToolset toolset =
                new FsCheckpointStateToolset(new Path(dir, "chk-1/shared"), (PathsCopyingFileSystem) fs);
        proxy.clearRecorded();

        assertThat(toolset.canFastDuplicate(handles.get(0))).isTrue();
        List<StreamStateHandle> copies = toolset.duplicate(handles);

        assertThat(proxy.count(RequestKind.COPY_OBJECT)).isEqualTo(sizes.length);
        assertThat(proxy.count(RequestKind.GET_OBJECT)).as("GETs").isZero();
        assertThat(proxy.count(RequestKind.PUT_OBJECT)).as("PUTs").isZero();
        assertThat(proxy.count(RequestKind.UPLOAD_PART)).as("UploadParts").isZero();
        for (int i = 0; i < copies.size(); i++) {
            Path target = ((FileStateHandle) copies.get(i)).getFilePath();
            assertThat(target.getParent()).isEqualTo(new Path(dir, "chk-1/shared"));
            assertThat(read(target)).isEqualTo(contents.get(i));
        }
    }

    @Test
    void aStoreThatRefusesCopiesGetsStreamedCopies() throws Exception {
        FaultRule refusal = proxy.failAlways(
                RequestKind.COPY_OBJECT, Fault.error(501, "NotImplemented", "CopyObject is not implemented"));
        byte[] small = bytes(70_000, 1);
        byte[] large = bytes(9 * MIB + 5, 2);
        Path smallSource = write(new Path(dir, "db/small.sst"), small);
        Path largeSource = write(new Path(dir, "db/large.sst"), large);
        Path smallTarget = new Path(dir, "chk/small");
        Path largeTarget = new Path(dir, "chk/large");

        ((PathsCopyingFileSystem) fs)
                .copyFiles(
                        List.of(
                                CopyRequest.of(smallSource, smallTarget, small.length),
                                CopyRequest.of(largeSource, largeTarget, large.length)),
                        new CloseableRegistry());

        assertThat(refusal.applied()).isPositive();
        assertThat(read(smallTarget)).isEqualTo(small);
        assertThat(read(largeTarget)).isEqualTo(large);
        long refused = refusal.applied();
        Path again = new Path(dir, "chk/again");

        ((PathsCopyingFileSystem) fs)
                .copyFiles(List.of(CopyRequest.of(smallSource, again, small.length)), new CloseableRegistry());

        assertThat(refusal.applied()).as("CopyObject once refused").isEqualTo(refused);
        assertThat(read(again)).isEqualTo(small);
    }

    @Test
    void aClosedRegistryCancelsTheCopy() throws Exception {
        Path source = write(new Path(dir, "db/slow.sst"), bytes(1000, 3));
        // The copy's answer is held back until the test has closed the registry.
        proxy.failAlways(RequestKind.COPY_OBJECT, Fault.delayFirstByte(java.time.Duration.ofSeconds(20)));
        CloseableRegistry registry = new CloseableRegistry();
        CompletableFuture<Void> copying = CompletableFuture.runAsync(() -> {
            try {
                ((PathsCopyingFileSystem) fs)
                        .copyFiles(List.of(CopyRequest.of(source, new Path(dir, "chk/slow"), 1000)), registry);
            } catch (IOException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(30))
                .until(() -> proxy.count(RequestKind.COPY_OBJECT) > 0);

        registry.close();

        assertThatThrownBy(() -> copying.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(InterruptedIOException.class);
    }

    private Path write(Path path, byte[] data) throws IOException {
        try (FSDataOutputStream out = fs.create(path, WriteMode.OVERWRITE)) {
            out.write(data);
        }
        return path;
    }

    private byte[] read(Path path) throws IOException {
        try (FSDataInputStream in = fs.open(path)) {
            return in.readAllBytes();
        }
    }

    private static byte[] bytes(int length, int seed) {
        byte[] data = new byte[length];
        new Random(seed * 31L + length).nextBytes(data);
        return data;
    }
}
