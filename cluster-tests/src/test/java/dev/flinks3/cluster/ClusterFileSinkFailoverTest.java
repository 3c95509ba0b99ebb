package dev.flinks3.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.EmbeddedS3Server;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.connector.file.sink.FileSink;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link FileSinkJob} on a {@link StandaloneCluster} (a JobManager and two TaskManager processes, the
 * plugin from {@code plugins/}), submitted through Flink's CLI; one TaskManager that runs a subtask is
 * killed with {@code kill -9} while a checkpoint is in progress; the job recovers on the other and
 * finishes; every record is committed exactly once, and no multipart upload is left under the sink's
 * output. The multipart uploads open at the server right after the kill are counted and printed, by
 * prefix (checkpoints, sink).
 */
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class ClusterFileSinkFailoverTest {

    private static final String BUCKET = "flinks3-cluster-sink";
    private static final long RECORDS = 40_000;
    private static final int RECORDS_PER_SECOND = 1_500;
    private static final Pattern JOB_ID = Pattern.compile("JobID ([0-9a-f]{32})");

    @Test
    void everyRecordExactlyOnceAfterATaskManagerIsKilledDuringACheckpoint() throws Exception {
        Path work = Files.createDirectories(Path.of("target", "cluster-filesink-" + System.currentTimeMillis()))
                .toAbsolutePath();
        FlinkDistribution flink = FlinkDistribution.fetch(System.getProperty("flinks3.cluster.flink.version", "2.3.0"));
        try (EmbeddedS3Server server = EmbeddedS3Server.builder()
                        .verifyTrailingChecksums(true)
                        .bucket(BUCKET)
                        .start();
                S3Client s3 = S3Client.builder()
                        .endpointOverride(server.endpoint())
                        .region(Region.of(server.region()))
                        .forcePathStyle(true)
                        .credentialsProvider(StaticCredentialsProvider.create(
                                AwsBasicCredentials.create(server.accessKey(), server.secretKey())))
                        .build();
                StandaloneCluster cluster = StandaloneCluster.start(
                        flink,
                        work.resolve("flink"),
                        2,
                        Map.ofEntries(
                                Map.entry("s3.endpoint", server.endpoint().toString()),
                                Map.entry("s3.access-key", server.accessKey()),
                                Map.entry("s3.secret-key", server.secretKey()),
                                Map.entry("s3.region", server.region()),
                                Map.entry("s3.path-style-access", "true"),
                                Map.entry("s3.upload.min.part.size", "5mb"),
                                Map.entry("execution.checkpointing.dir", "s3://" + BUCKET + "/checkpoints"),
                                Map.entry("execution.checkpointing.interval", "1s"),
                                Map.entry("restart-strategy.type", "fixed-delay"),
                                Map.entry("restart-strategy.fixed-delay.attempts", "5"),
                                Map.entry("restart-strategy.fixed-delay.delay", "1s"),
                                Map.entry("parallelism.default", "2"),
                                Map.entry("taskmanager.load-balance.mode", "SLOTS"),
                                Map.entry("heartbeat.interval", "1000"),
                                Map.entry("heartbeat.timeout", "8000")))) {
            Path jar = jobJar(work.resolve("filesink-job.jar"));
            JavaProcess submit = cluster.cli(
                    "flink-run-filesink",
                    List.of(
                            "run",
                            "-d",
                            jar.toString(),
                            "s3://" + BUCKET + "/out",
                            String.valueOf(RECORDS),
                            String.valueOf(RECORDS_PER_SECOND)));
            assertThat(submit.waitFor(Duration.ofMinutes(3)))
                    .as("flink run -d; %s", submit.log())
                    .isZero();
            Matcher id = JOB_ID.matcher(submit.log());
            assertThat(id.find()).as("job id in: %s", submit.log()).isTrue();
            String job = id.group(1);

            // A checkpoint in progress, after at least two completed ones.
            Awaitility.await("a checkpoint in progress after two completed")
                    .atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofMillis(50))
                    .ignoreExceptions()
                    .until(() -> {
                        String counts = cluster.get("/jobs/" + job + "/checkpoints");
                        return count(counts, "completed") >= 2 && count(counts, "in_progress") >= 1;
                    });
            JavaProcess victim = taskManagerRunning(cluster, job);
            victim.kill();
            List<MultipartUpload> open =
                    s3.listMultipartUploads(b -> b.bucket(BUCKET)).uploads();
            long underCheckpoints = open.stream()
                    .filter(u -> u.key().startsWith("checkpoints/"))
                    .count();
            long underSink =
                    open.stream().filter(u -> u.key().startsWith("out/")).count();
            System.out.printf(
                    "after kill -9 of %s: %d multipart uploads open, %d under checkpoints/, %d under out/%n",
                    victim, open.size(), underCheckpoints, underSink);

            Awaitility.await("job " + job + " finished")
                    .atMost(Duration.ofMinutes(6))
                    .pollInterval(Duration.ofSeconds(1))
                    .ignoreExceptions()
                    .failFast("job failed", () -> cluster.get("/jobs/" + job).contains("\"state\":\"FAILED\""))
                    .until(() -> cluster.get("/jobs/" + job).contains("\"state\":\"FINISHED\""));
            assertThat(cluster.get("/jobs/" + job + "/exceptions"))
                    .as("the job went through a failover")
                    .contains("exceptionHistory");

            assertEveryRecordExactlyOnce(s3);
            assertThat(s3.listMultipartUploads(b -> b.bucket(BUCKET).prefix("out/"))
                            .uploads())
                    .as("multipart uploads left under the sink's output")
                    .isEmpty();
            System.out.printf(
                    "after the job finished: %d multipart uploads open under checkpoints/%n",
                    s3.listMultipartUploads(b -> b.bucket(BUCKET).prefix("checkpoints/"))
                            .uploads()
                            .size());
        }
    }

    /** The TaskManager process that runs a subtask of {@code job} (matched by its data port in the REST API). */
    private static JavaProcess taskManagerRunning(StandaloneCluster cluster, String job) throws Exception {
        String vertices = cluster.get("/jobs/" + job);
        Matcher vertex = Pattern.compile("\"id\":\"([0-9a-f]{32})\"").matcher(vertices);
        assertThat(vertex.find()).isTrue();
        String hosts = cluster.get("/jobs/" + job + "/vertices/" + vertex.group(1) + "/taskmanagers");
        for (JavaProcess taskManager : cluster.taskManagers()) {
            String tmId = taskManagerId(taskManager.log());
            if (tmId != null && hosts.contains(tmId)) {
                return taskManager;
            }
        }
        throw new AssertionError("no TaskManager process's ResourceID is among the source's TaskManagers: " + hosts);
    }

    private static String taskManagerId(String log) {
        Matcher matcher =
                Pattern.compile("Starting TaskManager with ResourceID: (\\S+)").matcher(log);
        return matcher.find() ? matcher.group(1) : null;
    }

    private static int count(String checkpoints, String field) {
        Matcher matcher = Pattern.compile("\"" + field + "\":(\\d+)").matcher(checkpoints);
        return matcher.find() ? Integer.parseInt(matcher.group(1)) : 0;
    }

    private static void assertEveryRecordExactlyOnce(S3Client s3) {
        BitSet seen = new BitSet((int) RECORDS);
        List<Long> duplicates = new ArrayList<>();
        List<S3Object> objects = new ArrayList<>();
        s3.listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix("out/"))
                .contents()
                .forEach(objects::add);
        for (S3Object object : objects) {
            assertThat(object.key()).matches("out/[^/]+/part-[^/]+");
            String text =
                    s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(object.key())).asString(StandardCharsets.UTF_8);
            text.lines().forEach(line -> {
                long number = Long.parseLong(line.substring(0, 10));
                if (seen.get((int) number)) {
                    duplicates.add(number);
                }
                seen.set((int) number);
            });
        }
        assertThat(duplicates).as("records committed twice").isEmpty();
        assertThat(seen.cardinality()).as("distinct records committed").isEqualTo((int) RECORDS);
        assertThat(seen.length()).isEqualTo((int) RECORDS);
    }

    /** {@link FileSinkJob}'s classes and flink-connector-files (a distribution's lib/ does not hold it). */
    private static Path jobJar(Path jar) throws IOException, URISyntaxException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, FileSinkJob.class.getName());
        Path classes = Path.of(FileSinkJob.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        Path connector = Path.of(FileSink.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            try (Stream<Path> files = Files.list(classes.resolve("dev/flinks3/cluster"))) {
                for (Path file : files.filter(f -> f.getFileName().toString().startsWith("FileSinkJob"))
                        .toList()) {
                    out.putNextEntry(new JarEntry("dev/flinks3/cluster/" + file.getFileName()));
                    Files.copy(file, out);
                    out.closeEntry();
                }
            }
            try (JarFile files = new JarFile(connector.toFile())) {
                for (Enumeration<JarEntry> entries = files.entries(); entries.hasMoreElements(); ) {
                    JarEntry entry = entries.nextElement();
                    if (entry.isDirectory() || entry.getName().startsWith("META-INF/")) {
                        continue;
                    }
                    out.putNextEntry(new JarEntry(entry.getName()));
                    try (InputStream in = files.getInputStream(entry)) {
                        in.transferTo(out);
                    }
                    out.closeEntry();
                }
            }
        }
        return jar;
    }
}
