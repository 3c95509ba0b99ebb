package dev.flinks3.fs;

import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.UploadSettings;
import dev.flinks3.transfer.fake.InMemoryObjectClient;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.apache.flink.core.fs.Path;

/** Filesystems over an {@link InMemoryObjectClient}, with S3's smallest part size to keep tests small. */
final class TestFileSystems {

    static final String BUCKET = "bucket";
    static final long PART = UploadSettings.MIN_PART_SIZE;

    private TestFileSystems() {}

    static S3Settings.Builder smallParts() {
        return S3Settings.builder()
                .upload(u -> u.partSizeBytes(PART).maxBufferedBytesPerProcess(16 * PART))
                .read(r -> r.readAheadBytes(64 * 1024).readAheadParallelism(1));
    }

    static S3FileSystem fileSystem(InMemoryObjectClient client) {
        return fileSystem(client, S3FileSystemSettings.of(smallParts().build()), null);
    }

    static S3FileSystem fileSystem(InMemoryObjectClient client, S3FileSystemSettings settings, BulkCopy bulkCopy) {
        UploadEngine uploads = new UploadEngine(client, settings.s3().upload());
        return new S3FileSystem(URI.create("s3://" + BUCKET), client, uploads, uploads, bulkCopy, null, settings);
    }

    static S3Location location(String key) {
        return S3Location.of("s3", BUCKET, key);
    }

    static Path path(String key) {
        return new Path("s3", BUCKET, "/" + key);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
