package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestRecord;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.ICloseableRegistry;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.PathsCopyingFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code s3.bulk-copy.range-size} sets the ranged GETs of a bulk copy (RocksDB restore to local
 * disk), and the part size of uploads does not: the same object is fetched in ranges of 1 MiB by one
 * filesystem and of 2 MiB by another, both with the default 8 MiB parts.
 */
class BulkCopyRangeSizeTest extends AbstractS3ProxyFileSystemTest {

    private static final int SIZE = 4 * MIB + 17;

    @TempDir
    java.nio.file.Path local;

    @Test
    @Timeout(120)
    void theRangeSizeSetsTheRangedGetsOfABulkCopyAndThePartSizeDoesNot() throws Exception {
        Path object = new Path(dir, "000042.sst");
        byte[] data = randomBytes(SIZE, 42);
        write(object, data);

        assertThat(rangesOfACopy(object, Map.of("s3.bulk-copy.range-size", "1 mb"), "one-mib"))
                .containsExactly(
                        range(0, MIB),
                        range(MIB, 2 * MIB),
                        range(2 * MIB, 3 * MIB),
                        range(3 * MIB, 4 * MIB),
                        range(4 * MIB, SIZE));
        assertThat(rangesOfACopy(
                        object,
                        Map.of("s3.bulk-copy.range-size", "2 mb", "s3.upload.min.part.size", "5 mb"),
                        "two-mib"))
                .containsExactly(range(0, 2 * MIB), range(2 * MIB, 4 * MIB), range(4 * MIB, SIZE));
        assertThat(Files.readAllBytes(local.resolve("one-mib"))).isEqualTo(data);
        assertThat(Files.readAllBytes(local.resolve("two-mib"))).isEqualTo(data);
    }

    /** Copies the object to a local file with a filesystem of {@code options}; the Range headers of its GETs, sorted. */
    private List<String> rangesOfACopy(Path object, Map<String, String> options, String fileName) throws Exception {
        FileSystem copying = FlinkS3FileSystems.create("s3", target.bucket(), target.flinkConfiguration(options));
        try {
            long before = getsOf(object).count();
            ((PathsCopyingFileSystem) copying)
                    .copyFiles(
                            List.of(PathsCopyingFileSystem.CopyRequest.of(
                                    object, new Path(local.resolve(fileName).toUri()), SIZE)),
                            ICloseableRegistry.NO_OP);
            return getsOf(object)
                    .skip(before)
                    .map(BulkCopyRangeSizeTest::rangeHeader)
                    .sorted((a, b) -> Long.compare(start(a), start(b)))
                    .collect(Collectors.toList());
        } finally {
            FlinkS3FileSystems.close(copying);
        }
    }

    /** The GETs of the object the server received, in arrival order (the server is shared: others are left out). */
    private Stream<RequestRecord> getsOf(Path object) {
        return server.requestLog().entries(RequestKind.GET_OBJECT).stream()
                .filter(get -> get.key().equals(key(object)));
    }

    private static String rangeHeader(RequestRecord get) {
        return get.header("Range").orElse("(whole object)");
    }

    private static long start(String range) {
        return range.startsWith("bytes=") ? Long.parseLong(range.substring(6, range.indexOf('-'))) : -1;
    }

    /** The Range header of the bytes {@code [from, to)}. */
    private static String range(long from, long to) {
        return "bytes=" + from + "-" + (to - 1);
    }
}
