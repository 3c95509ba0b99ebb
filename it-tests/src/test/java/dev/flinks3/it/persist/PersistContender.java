package dev.flinks3.it.persist;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.flink.core.plugin.PluginUtils;
import org.apache.flink.util.WrappingProxy;
import org.apache.flink.util.WrappingProxyUtil;

/**
 * One contender of {@link PersistBenchmark}, in a JVM of its own whose plugins folder
 * ({@code FLINK_PLUGINS_DIR}) holds only the contender's jar, loaded as a Flink process loads it.
 *
 * <p>After an untimed warm-up stream, opens a recoverable stream, writes {@code mib} MiB in 1 MiB writes (as a sink does between two
 * checkpoints), calls {@code persist()}, and times each step. Then, untimed, commits the file, reads
 * it back and compares every byte, and deletes what it wrote. Prints one line:
 * {@code RESULT <filesystem class> <open ms> <write ms> <persist ms> <bytes> <outcome>}, the outcome
 * being {@code verified}, {@code wrong-bytes} or {@code commit-failed} (the cause goes to standard
 * error).
 *
 * <pre>PersistContender &lt;endpoint&gt; &lt;access key&gt; &lt;secret key&gt; &lt;bucket&gt; &lt;mib&gt;</pre>
 */
public final class PersistContender {

    /** Prefix of the result line. */
    public static final String RESULT = "RESULT";

    private static final int WRITE_BYTES = 1024 * 1024;

    private PersistContender() {}

    public static void main(String[] args) throws Exception {
        URI endpoint = URI.create(args[0]);
        int mib = Integer.parseInt(args[4]);
        // The keys of the rival plugins' documentation for a custom endpoint (BENCHMARKING.md).
        Configuration config = Configuration.fromMap(Map.of(
                "s3.endpoint", endpoint.toString(),
                "s3.path.style.access", "true",
                "s3.access-key", args[1],
                "s3.secret-key", args[2],
                "s3.region", "us-east-1"));
        FileSystem.initialize(config, PluginUtils.createPluginManagerFromRootFolder(config));
        Path path = new Path("s3://" + args[3] + "/persist-" + UUID.randomUUID() + "/part-0");
        FileSystem fs = path.getFileSystem();
        byte[] data = new byte[mib * WRITE_BYTES];
        new Random(mib).nextBytes(data);

        RecoverableWriter writer = fs.createRecoverableWriter();
        warmUp(writer, new Path(path.getParent(), "warm-up"), data);
        long start = System.nanoTime();
        RecoverableFsDataOutputStream out = writer.open(path);
        long opened = System.nanoTime();
        for (int offset = 0; offset < data.length; offset += WRITE_BYTES) {
            out.write(data, offset, WRITE_BYTES);
        }
        long written = System.nanoTime();
        out.persist();
        long persisted = System.nanoTime();

        String outcome;
        try {
            out.closeForCommit().commit();
            outcome = readsBack(fs, path, data) ? "verified" : "wrong-bytes";
        } catch (IOException e) {
            e.printStackTrace();
            outcome = "commit-failed";
        }
        System.out.printf("%s %s %.1f %.1f %.1f %d %s%n", RESULT, implementation(fs), millis(opened - start),
                millis(written - opened), millis(persisted - written), data.length, outcome);
        System.out.flush();
        try {
            fs.delete(path.getParent(), true);
        } catch (IOException e) {
            e.printStackTrace();
        }
        // the plugins' client threads must not keep this JVM alive
        System.exit(0);
    }

    /**
     * Untimed: one small stream persisted and abandoned, so the plugin has created its S3 client and
     * threads (which a Flink process does once) before the timed stream.
     */
    private static void warmUp(RecoverableWriter writer, Path path, byte[] data) throws IOException {
        RecoverableFsDataOutputStream out = writer.open(path);
        out.write(data, 0, WRITE_BYTES);
        out.persist();
        out.close();
    }

    private static boolean readsBack(FileSystem fs, Path path, byte[] expected) throws IOException {
        byte[] buffer = new byte[WRITE_BYTES];
        int position = 0;
        try (InputStream in = fs.open(path)) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                if (position + n > expected.length
                        || !java.util.Arrays.equals(buffer, 0, n, expected, position, position + n)) {
                    return false;
                }
                position += n;
            }
        }
        return position == expected.length;
    }

    private static String implementation(FileSystem fs) {
        Object inner = fs instanceof WrappingProxy ? WrappingProxyUtil.stripProxy((WrappingProxy<?>) fs) : fs;
        return inner.getClass().getName();
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }
}
