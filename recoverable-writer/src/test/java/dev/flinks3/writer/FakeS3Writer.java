package dev.flinks3.writer;

import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A recoverable writer on an in-memory S3 with S3's smallest part size (5 MiB), one target path, and
 * the helpers its tests share. One per test.
 */
final class FakeS3Writer {

    static final int PART = (int) UploadSettings.MIN_PART_SIZE;

    final InMemoryObjectClient client = new InMemoryObjectClient();
    final UploadEngine engine = new UploadEngine(
            client,
            UploadSettings.builder()
                    .partSizeBytes(PART)
                    .maxPartsInFlightPerStream(4)
                    .maxBufferedBytesPerProcess(64L * 1024 * 1024)
                    .build());
    final S3RecoverableWriter writer = new S3RecoverableWriter(client, engine, S3Location.of("s3", "bucket", ""));
    final Path path = new Path("s3://bucket/out/part-0-0");
    final S3Location target = S3Location.of("s3", "bucket", "out/part-0-0");

    /** The resumable as a restored checkpoint gives it back: serialized and read again. */
    S3ResumeRecoverable roundTrip(RecoverableWriter.ResumeRecoverable recoverable) throws IOException {
        SimpleVersionedSerializer<RecoverableWriter.ResumeRecoverable> serializer =
                writer.getResumeRecoverableSerializer();
        return (S3ResumeRecoverable) serializer.deserialize(serializer.getVersion(), serializer.serialize(recoverable));
    }

    /** The commit recoverable as a restored checkpoint gives it back: serialized and read again. */
    S3CommitRecoverable roundTrip(RecoverableWriter.CommitRecoverable recoverable) throws IOException {
        SimpleVersionedSerializer<RecoverableWriter.CommitRecoverable> serializer =
                writer.getCommitRecoverableSerializer();
        return (S3CommitRecoverable) serializer.deserialize(serializer.getVersion(), serializer.serialize(recoverable));
    }

    /** Keys of the tail objects in the bucket. */
    List<String> tailKeys() {
        return client.keys("bucket").stream()
                .filter(key -> TailObjects.isTailObjectName(key.substring(key.lastIndexOf('/') + 1)))
                .toList();
    }

    static byte[] random(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
