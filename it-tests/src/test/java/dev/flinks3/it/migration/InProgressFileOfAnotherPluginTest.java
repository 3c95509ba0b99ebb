package dev.flinks3.it.migration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.it.SharedS3Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A file in progress written by another plugin's real recoverable writer (loaded through Flink's plugin
 * mechanism, {@link RivalPlugin}) and persisted as a checkpoint would, its state serialized by that plugin's own
 * serializer, is resumed and committed by ours on S3Proxy: the object holds every byte of both writers once, the
 * other plugin's incomplete-part object is gone and no multipart upload is left open. S3Proxy keeps objects as
 * files, as MinIO does, so flink-s3-fs-native's incomplete part below the target's key ({@code
 * <key>/.incomplete/...}) must be gone before the target can be completed.
 *
 * <p>The other plugin's stream is left open, as by a TaskManager lost after the checkpoint: flink-s3-fs-native
 * 2.3.0 aborts its upload when the stream is closed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InProgressFileOfAnotherPluginTest {

    private static final String BUCKET = SharedS3Proxy.BUCKET;
    private static final int PART = 5 * 1024 * 1024;

    @AfterAll
    static void uninstall() {
        FileSystem.initialize(new Configuration(), null);
    }

    @ParameterizedTest
    @EnumSource(
            value = RivalPlugin.class,
            names = {"HADOOP", "NATIVE"})
    void isResumedAndCommittedByOurs(RivalPlugin rival) throws Exception {
        String prefix = "in-progress-" + UUID.randomUUID() + "/";
        String scheme = rival == RivalPlugin.HADOOP ? "s3a" : "s3";
        Path path = new Path(scheme + "://" + BUCKET + "/" + prefix + "part-0-0");
        byte[] first = random(PART + 100, 1);
        byte[] second = random(PART + 7, 2);

        RivalPlugin.install(rival, true);
        RivalPlugin.assertServedBy(path.toString(), rival);
        RecoverableWriter theirs = path.getFileSystem().createRecoverableWriter();
        RecoverableFsDataOutputStream out = theirs.open(path);
        // In chunks, as a FileSink writes: one part, then an incomplete part of 100 bytes.
        for (int offset = 0; offset < first.length; offset += 64 * 1024) {
            out.write(first, offset, Math.min(64 * 1024, first.length - offset));
        }
        SimpleVersionedSerializer<RecoverableWriter.ResumeRecoverable> theirSerializer =
                theirs.getResumeRecoverableSerializer();
        byte[] state = theirSerializer.serialize(out.persist());
        int version = theirSerializer.getVersion();

        RivalPlugin.install(rival, false);
        RivalPlugin.assertServedBy(path.toString(), null);
        RecoverableWriter ours = path.getFileSystem().createRecoverableWriter();
        RecoverableFsDataOutputStream resumed =
                ours.recover(ours.getResumeRecoverableSerializer().deserialize(version, state));
        assertThat(resumed.getPos()).isEqualTo(first.length);
        resumed.write(second);
        resumed.closeForCommit().commit();

        try (S3Client s3 = SharedS3Proxy.target().sdkClient()) {
            byte[] expected = new byte[first.length + second.length];
            System.arraycopy(first, 0, expected, 0, first.length);
            System.arraycopy(second, 0, expected, first.length, second.length);
            assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(prefix + "part-0-0"))
                            .asByteArray())
                    .isEqualTo(expected);
            List<String> keys = new ArrayList<>();
            s3.listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix(prefix))
                    .contents()
                    .forEach(object -> keys.add(object.key()));
            assertThat(keys).as("objects left by either writer").containsExactly(prefix + "part-0-0");
            assertThat(s3.listMultipartUploads(b -> b.bucket(BUCKET).prefix(prefix))
                            .uploads())
                    .as("multipart uploads left open")
                    .isEmpty();
        }
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
