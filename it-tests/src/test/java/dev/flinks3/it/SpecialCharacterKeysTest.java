package dev.flinks3.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Keys with spaces, {@code +}, {@code %}, {@code =}, {@code #} and non-ASCII characters round-trip
 * through create, open, list, rename and delete, and are stored in S3 under exactly that key (no
 * double encoding, no {@code +} turned into a space).
 */
class SpecialCharacterKeysTest extends AbstractS3ProxyFileSystemTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "with space",
                "plus+sign",
                "percent%20literal",
                "100%",
                "key=value",
                "hash#tag",
                "ümlaut é 日本語",
                "all of them a+b=c%d#e é"
            })
    void keyRoundTripsThroughEveryCall(String name) throws Exception {
        Path path = new Path(dir, name);
        byte[] data = ("content of " + name).getBytes(StandardCharsets.UTF_8);

        write(path, data);

        assertThat(key(path)).endsWith("/" + name);
        assertThat(objectBytes(path)).as("object stored under the exact key").isEqualTo(data);
        assertThat(readFully(path)).isEqualTo(data);
        assertThat(fs.getFileStatus(path).getLen()).isEqualTo(data.length);
        assertThat(names(fs.listStatus(dir))).containsExactly(name);

        Path renamed = new Path(dir, "renamed " + name);
        assertThat(fs.rename(path, renamed)).isTrue();
        assertThat(fs.exists(path)).isFalse();
        assertThat(readFully(renamed)).isEqualTo(data);
        assertThat(names(fs.listStatus(dir))).containsExactly("renamed " + name);

        assertThat(fs.delete(renamed, false)).isTrue();
        assertThat(fs.exists(renamed)).isFalse();
        assertThat(s3.listObjectsV2(b -> b.bucket(target.bucket()).prefix(key(dir)))
                        .contents())
                .isEmpty();
    }

    private static String[] names(FileStatus[] statuses) {
        return Arrays.stream(statuses).map(s -> s.getPath().getName()).toArray(String[]::new);
    }
}
