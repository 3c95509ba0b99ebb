package dev.flinks3.k8s;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The configuration keys Flink's flink-s3-fs-presto reads, as its own jar (copied by the build to
 * {@code target/rival-plugins/}) holds them. Flink's presto factory hands every {@code presto.s3.*} key (and
 * every {@code s3.*} key, renamed to {@code presto.s3.*}) to Presto's {@code PrestoS3FileSystem}, which reads
 * its settings under names it declares as string constants; a key it knows is such a constant in its class
 * file. Loading the class would need the plugin's own class loader; its constant pool says the same.
 */
final class PrestoKeys {

    static final String PREFIX = "presto.s3.";
    private static final String FILE_SYSTEM_CLASS = "com/facebook/presto/hive/s3/PrestoS3FileSystem.class";
    /** The tag of a CONSTANT_Utf8 entry in a class file's constant pool (JVM specification, 4.4.7). */
    private static final byte UTF8_TAG = 1;

    private final byte[] fileSystemClass;

    private PrestoKeys(byte[] fileSystemClass) {
        this.fileSystemClass = fileSystemClass;
    }

    static PrestoKeys load() {
        String jar = System.getProperty("flinks3.presto-plugin.jar");
        if (jar == null) {
            throw new IllegalStateException(
                    "system property flinks3.presto-plugin.jar is not set (run the tests with Maven)");
        }
        try (ZipFile zip = new ZipFile(Path.of(jar).toFile())) {
            ZipEntry entry = zip.getEntry(FILE_SYSTEM_CLASS);
            if (entry == null) {
                throw new IllegalStateException(jar + " has no " + FILE_SYSTEM_CLASS);
            }
            try (InputStream in = zip.getInputStream(entry)) {
                return new PrestoKeys(in.readAllBytes());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jar, e);
        }
    }

    /** Whether Presto reads {@code key}, written with Presto's own prefix {@value #PREFIX}. */
    boolean reads(String key) {
        return key.startsWith(PREFIX) && hasStringConstant(key);
    }

    private boolean hasStringConstant(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        byte[] entry = new byte[utf8.length + 3];
        entry[0] = UTF8_TAG;
        entry[1] = (byte) (utf8.length >> 8);
        entry[2] = (byte) utf8.length;
        System.arraycopy(utf8, 0, entry, 3, utf8.length);
        outer:
        for (int i = 0; i + entry.length <= fileSystemClass.length; i++) {
            for (int j = 0; j < entry.length; j++) {
                if (fileSystemClass[i + j] != entry[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
