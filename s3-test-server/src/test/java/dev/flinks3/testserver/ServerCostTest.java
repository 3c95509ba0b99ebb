package dev.flinks3.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * The benchmark server charges a client the same for the same bytes, however it uploads them: one
 * PutObject and a multipart upload of the same bytes cost S3Proxy's request threads about the same CPU,
 * and completing the upload costs almost nothing (the filesystem backend of S3Proxy 4.1.0 joins the part
 * files with a kernel copy instead of reading them back). Real S3 charges the client nothing for either;
 * a server that re-read every part on completion would make multipart clients look slower than they are.
 *
 * <p>Measured as CPU time of the server's own threads (not wall time), minimum of three rounds.
 */
class ServerCostTest {

    private static final String BUCKET = "server-cost";
    private static final int OBJECT_BYTES = 64 << 20;
    private static final int PART_BYTES = 8 << 20;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aMultipartUploadCostsTheServerAboutWhatOnePutOfTheSameBytesCosts() throws Exception {
        byte[] data = new byte[OBJECT_BYTES];
        new Random(7).nextBytes(data);
        long put = Long.MAX_VALUE;
        long parts = Long.MAX_VALUE;
        long complete = Long.MAX_VALUE;
        try (EmbeddedS3Server server = EmbeddedS3Server.builder().bucket(BUCKET).start();
                S3Client s3 = TestClients.s3(server)) {
            for (int round = 0; round < 3; round++) {
                String putKey = "put-" + round;
                String multipartKey = "multipart-" + round;
                long before = serverCpuNanos();
                s3.putObject(r -> r.bucket(BUCKET).key(putKey), RequestBody.fromBytes(data));
                long afterPut = serverCpuNanos();
                String uploadId = s3.createMultipartUpload(r -> r.bucket(BUCKET).key(multipartKey))
                        .uploadId();
                List<CompletedPart> completed = new ArrayList<>();
                for (int part = 1; part <= OBJECT_BYTES / PART_BYTES; part++) {
                    int number = part;
                    byte[] body = Arrays.copyOfRange(data, (part - 1) * PART_BYTES, part * PART_BYTES);
                    String eTag = s3.uploadPart(
                                    r -> r.bucket(BUCKET)
                                            .key(multipartKey)
                                            .uploadId(uploadId)
                                            .partNumber(number),
                                    RequestBody.fromBytes(body))
                            .eTag();
                    completed.add(CompletedPart.builder()
                            .partNumber(number)
                            .eTag(eTag)
                            .build());
                }
                long afterParts = serverCpuNanos();
                s3.completeMultipartUpload(r ->
                        r.bucket(BUCKET).key(multipartKey).uploadId(uploadId).multipartUpload(m -> m.parts(completed)));
                long afterComplete = serverCpuNanos();
                put = Math.min(put, afterPut - before);
                parts = Math.min(parts, afterParts - afterPut);
                complete = Math.min(complete, afterComplete - afterParts);
                assertThat(s3.getObjectAsBytes(r -> r.bucket(BUCKET).key(multipartKey))
                                .asByteArray())
                        .isEqualTo(data);
            }
        }
        assertThat(put).as("server CPU of one PutObject").isPositive();
        assertThat((double) parts + complete)
                .as("server CPU ns of the multipart upload vs the PUT's %d ns", put)
                .isBetween(0.7 * put, 1.4 * put);
        assertThat((double) complete)
                .as("server CPU ns of CompleteMultipartUpload vs the PUT's %d ns", put)
                .isLessThan(0.1 * put);
    }

    /** CPU time of S3Proxy's request threads (Jetty's pool) so far, in ns. */
    private static long serverCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().startsWith("S3Proxy-Jetty")) {
                total += Math.max(0, threads.getThreadCpuTime(thread.getId()));
            }
        }
        return total;
    }
}
