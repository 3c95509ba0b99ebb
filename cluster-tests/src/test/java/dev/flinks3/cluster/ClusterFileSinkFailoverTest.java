package dev.flinks3.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link FileSinkJob} on a {@link StandaloneCluster} (a JobManager and two TaskManager processes, the
 * plugin from {@code plugins/}) of each Flink version of {@link StandaloneCluster#testedVersions},
 * submitted through Flink's CLI with the version's own file connector in the job jar. Once the sink has
 * an in-progress part file's upload open and a checkpoint triggered after that completed (so the {@code
 * RecoverableWriter} persisted it), the server holds back its answers to the parts of checkpoint streams
 * until the kill, and one TaskManager is killed with {@code kill -9} once parts of both subtasks' checkpoint
 * streams are held (so both streams are mid-upload at the kill). The
 * job recovers (restored operator state verified) and finishes; then:
 *
 * <ul>
 *   <li>every record is committed exactly once;
 *   <li>under the sink's output, every persisted upload open at the kill was completed by the job's
 *       commit, none open at the kill was aborted, and what is still open was open at the kill already
 *       (started by the killed TaskManager after the checkpoint it was restored from, so no checkpoint
 *       names it): the restored job leaves nothing behind;
 *   <li>under the checkpoint directory, the killed TaskManager's uploads stay open (nothing can complete or
 *       abort them: the lifecycle rule README recommends for that prefix cleans them); they are counted.
 * </ul>
 *
 * The multipart uploads open at the server right after the kill and after the job are printed by prefix.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ClusterFileSinkFailoverTest {

    private static final String BUCKET = "flinks3-cluster-sink";
    private static final long RECORDS = 40_000;
    private static final int RECORDS_PER_SECOND = 1_500;
    private static final String CHECKPOINTS = "checkpoints/";
    private static final String OUTPUT = "out/";
    private static final Duration PART_HOLD_LIMIT = Duration.ofMinutes(1);
    private static final Pattern JOB_ID = Pattern.compile("JobID ([0-9a-f]{32})");

    static Stream<String> versions() {
        return StandaloneCluster.testedVersions();
    }

    @ParameterizedTest(name = "Flink {0}")
    @MethodSource("versions")
    void everyRecordExactlyOnceAfterATaskManagerIsKilledDuringACheckpoint(String version) throws Exception {
        Path work = Files.createDirectories(
                        Path.of("target", "cluster-filesink-" + version + "-" + System.currentTimeMillis()))
                .toAbsolutePath();
        FlinkDistribution flink = FlinkDistribution.fetch(version);
        // The job jar carries the file connector of the cluster's version, as a user's job jar does.
        Path connector = flink.requiredJar("flink-connector-files");
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
                                Map.entry("execution.checkpointing.dir", "s3://" + BUCKET + "/" + CHECKPOINTS),
                                Map.entry("execution.checkpointing.interval", "1s"),
                                Map.entry("restart-strategy.type", "fixed-delay"),
                                Map.entry("restart-strategy.fixed-delay.attempts", "5"),
                                Map.entry("restart-strategy.fixed-delay.delay", "1s"),
                                Map.entry("parallelism.default", "2"),
                                Map.entry("taskmanager.load-balance.mode", "SLOTS"),
                                Map.entry("heartbeat.interval", "1000"),
                                Map.entry("heartbeat.timeout", "8000")))) {
            // The upload ids of every CompleteMultipartUpload and AbortMultipartUpload under the sink's output
            // (the conditions only look; no request is changed).
            Set<String> completed = ConcurrentHashMap.newKeySet();
            Set<String> aborted = ConcurrentHashMap.newKeySet();
            String outputPath = "/" + BUCKET + "/" + OUTPUT;
            server.answers()
                    .rewrite(
                            RequestKind.COMPLETE_MULTIPART_UPLOAD,
                            request -> {
                                if (request.getRequestURI().startsWith(outputPath)) {
                                    completed.add(uploadId(request));
                                }
                                return false;
                            },
                            AnswerRewriteFilter.ALWAYS,
                            (request, served) -> served);
            server.answers()
                    .rewrite(
                            RequestKind.ABORT_MULTIPART_UPLOAD,
                            request -> {
                                if (request.getRequestURI().startsWith(outputPath)) {
                                    aborted.add(uploadId(request));
                                }
                                return false;
                            },
                            AnswerRewriteFilter.ALWAYS,
                            (request, served) -> served);
            Path jar = jobJar(work.resolve("filesink-job.jar"), connector);
            JavaProcess submit = cluster.cli(
                    "flink-run-filesink",
                    List.of(
                            "run",
                            "-d",
                            jar.toString(),
                            "s3://" + BUCKET + "/" + OUTPUT,
                            String.valueOf(RECORDS),
                            String.valueOf(RECORDS_PER_SECOND)));
            assertThat(submit.waitFor(Duration.ofMinutes(3)))
                    .as("flink run -d; %s", submit.log())
                    .isZero();
            Matcher id = JOB_ID.matcher(submit.log());
            assertThat(id.find()).as("job id in: %s", submit.log()).isTrue();
            String job = id.group(1);

            // An upload of the sink open, then a checkpoint completed that was triggered after the upload was
            // seen, so the RecoverableWriter persisted it (part files roll only at the end: 32 MiB is more than a
            // subtask writes). Judged by the checkpoint's trigger time, not by counts: the REST API caches
            // checkpoint statistics for seconds, so a count can lag checkpoints that were triggered long ago.
            List<MultipartUpload> sinkSeen = Awaitility.await(
                            "two completed checkpoints and an upload of the sink open")
                    .atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofMillis(200))
                    .ignoreExceptions()
                    .until(
                            () -> count(cluster.get("/jobs/" + job + "/checkpoints"), "completed") >= 2
                                    ? under(
                                            s3.listMultipartUploads(b -> b.bucket(BUCKET))
                                                    .uploads(),
                                            OUTPUT)
                                    : List.<MultipartUpload>of(),
                            open -> !open.isEmpty());
            long seenAt = System.currentTimeMillis();
            Awaitility.await("a checkpoint triggered after the upload was seen completed")
                    .atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions()
                    .until(() -> latestCompletedTriggeredAt(cluster.get("/jobs/" + job + "/checkpoints")) > seenAt);
            // From the next checkpoint on, the server holds back its answer to every part of a checkpoint
            // stream (stored at once, answered only after the kill): no checkpoint stream's upload can complete,
            // so once parts of two uploads are held, both subtasks' streams are uploading, and the kill lands
            // while they are. Held, not delayed by a fixed time: a delayed upload could complete between the
            // listing and the kill, and the killed TaskManager would leave nothing open. The hold starts when
            // the JobManager writes a checkpoint's _metadata (the checkpoint is then complete, and the next one
            // is triggered only after it), not at once: the REST API's statistics lag, so a checkpoint can be
            // in flight already, one subtask's stream uploaded and only the other's left to hold.
            String checkpointsPath = "/" + BUCKET + "/" + CHECKPOINTS;
            AtomicBoolean holding = new AtomicBoolean();
            for (RequestKind metadataWrite : List.of(RequestKind.PUT_OBJECT, RequestKind.COMPLETE_MULTIPART_UPLOAD)) {
                server.answers()
                        .rewrite(
                                metadataWrite,
                                request -> {
                                    String uri = request.getRequestURI();
                                    if (uri.startsWith(checkpointsPath) && uri.endsWith("/_metadata")) {
                                        holding.set(true);
                                    }
                                    return false;
                                },
                                AnswerRewriteFilter.ALWAYS,
                                (request, served) -> served);
            }
            Set<String> heldUploads = ConcurrentHashMap.newKeySet();
            CountDownLatch release = new CountDownLatch(1);
            server.answers()
                    .rewrite(
                            RequestKind.UPLOAD_PART,
                            request -> holding.get()
                                    && release.getCount() > 0
                                    && request.getRequestURI().startsWith(checkpointsPath),
                            AnswerRewriteFilter.ALWAYS,
                            (request, served) -> {
                                heldUploads.add(uploadId(request));
                                awaitRelease(release);
                                return served;
                            });
            Awaitility.await("parts of two checkpoint-stream uploads held (both subtasks' streams uploading)")
                    .atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> heldUploads.size() >= 2);
            List<MultipartUpload> openAtKill =
                    s3.listMultipartUploads(b -> b.bucket(BUCKET)).uploads();
            JavaProcess victim = taskManagerRunning(cluster, job);
            victim.kill();
            // Counted at the server right after the kill (the list before the kill plus anything that
            // was still open, since the dead process can open nothing more).
            List<MultipartUpload> open =
                    s3.listMultipartUploads(b -> b.bucket(BUCKET)).uploads();
            System.out.printf(
                    "Flink %s, kill -9 of %s during a checkpoint: %d multipart uploads open, %d under %s (checkpoint"
                            + " streams), %d under %s (the sink's in-progress part files)%n",
                    version,
                    victim,
                    open.size(),
                    under(open, CHECKPOINTS).size(),
                    CHECKPOINTS,
                    under(open, OUTPUT).size(),
                    OUTPUT);
            release.countDown();

            Awaitility.await("job " + job + " finished")
                    .atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(1))
                    .ignoreExceptions()
                    .failFast("job failed", () -> cluster.get("/jobs/" + job).contains("\"state\":\"FAILED\""))
                    .until(() -> cluster.get("/jobs/" + job).contains("\"state\":\"FINISHED\""));
            assertThat(cluster.get("/jobs/" + job + "/exceptions"))
                    .as("the job went through a failover")
                    .contains("exceptionHistory");
            assertThat(restoredBallast(cluster))
                    .as("operator state restored and verified after the kill (TaskManager logs)")
                    .isNotEmpty();

            assertEveryRecordExactlyOnce(s3);
            List<MultipartUpload> left =
                    s3.listMultipartUploads(b -> b.bucket(BUCKET)).uploads();
            Set<String> openAtKillIds =
                    openAtKill.stream().map(MultipartUpload::uploadId).collect(Collectors.toSet());
            // The sink's uploads open at the kill: those seen before the last checkpoints were persisted by
            // the RecoverableWriter; the restored job resumed them (or the surviving TaskManager kept writing)
            // and completed them at the commit. None may be aborted.
            List<MultipartUpload> sinkAtKill = under(openAtKill, OUTPUT);
            Set<String> seenIds =
                    sinkSeen.stream().map(MultipartUpload::uploadId).collect(Collectors.toSet());
            List<MultipartUpload> persisted = sinkAtKill.stream()
                    .filter(u -> seenIds.contains(u.uploadId()))
                    .toList();
            List<MultipartUpload> sinkLeft = under(left, OUTPUT);
            List<MultipartUpload> abandoned = under(left, CHECKPOINTS);
            System.out.printf(
                    "Flink %s, after the job finished: %d abandoned checkpoint-stream uploads open under %s (left by"
                            + " the killed TaskManager; a lifecycle rule on that prefix cleans them); under %s, of"
                            + " the %d uploads open at the kill (%d persisted by a completed checkpoint) %d were"
                            + " committed, %d aborted, %d are left open (started by the killed TaskManager after the"
                            + " checkpoint it was restored from, so no checkpoint names them)%n",
                    version,
                    abandoned.size(),
                    CHECKPOINTS,
                    OUTPUT,
                    sinkAtKill.size(),
                    persisted.size(),
                    sinkAtKill.stream()
                            .filter(u -> completed.contains(u.uploadId()))
                            .count(),
                    sinkAtKill.stream()
                            .filter(u -> aborted.contains(u.uploadId()))
                            .count(),
                    sinkLeft.size());
            assertThat(persisted)
                    .as("the sink's uploads open at the kill that a completed checkpoint persisted")
                    .isNotEmpty()
                    .allSatisfy(u -> assertThat(completed)
                            .as("committed by the job: %s", u.key())
                            .contains(u.uploadId()));
            assertThat(sinkAtKill)
                    .as("the sink's uploads open at the kill, aborted since (ids %s)", aborted)
                    .noneSatisfy(u -> assertThat(aborted).contains(u.uploadId()));
            assertThat(sinkLeft)
                    .as(
                            "uploads open under %s after the job finished: none that the job committed, and none that"
                                    + " was not open at the kill already (the restored job leaves nothing behind)",
                            OUTPUT)
                    .noneSatisfy(u -> assertThat(completed).contains(u.uploadId()))
                    .allSatisfy(u -> assertThat(openAtKillIds).contains(u.uploadId()));
            assertThat(abandoned)
                    .as("checkpoint-stream uploads the killed TaskManager left open (it was killed mid-upload)")
                    .isNotEmpty()
                    .allSatisfy(upload -> assertThat(openAtKillIds).contains(upload.uploadId()));
        }
    }

    /** The value of {@code uploadId} in the request's query string. */
    private static String uploadId(HttpServletRequest request) {
        String query = request.getQueryString();
        if (query == null) {
            return "";
        }
        for (String parameter : query.split("&")) {
            if (parameter.startsWith("uploadId=")) {
                return URLDecoder.decode(parameter.substring("uploadId=".length()), StandardCharsets.UTF_8);
            }
        }
        return "";
    }

    private static List<MultipartUpload> under(List<MultipartUpload> uploads, String prefix) {
        return uploads.stream().filter(u -> u.key().startsWith(prefix)).toList();
    }

    /** Waits until {@code release} opens, at most {@link #PART_HOLD_LIMIT} (so a failed test frees the server). */
    private static void awaitRelease(CountDownLatch release) {
        try {
            release.await(PART_HOLD_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The lines of the TaskManagers' logs where {@link FileSinkJob.Ballast} checked restored state. */
    private static List<String> restoredBallast(StandaloneCluster cluster) throws IOException {
        List<String> lines = new ArrayList<>();
        for (JavaProcess taskManager : cluster.taskManagers()) {
            taskManager
                    .log()
                    .lines()
                    .filter(l -> l.contains(FileSinkJob.RESTORED))
                    .forEach(lines::add);
        }
        return lines;
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

    /**
     * The trigger time (ms since the epoch, the JobManager's clock: this machine's) of the latest completed
     * checkpoint in a {@code /jobs/:id/checkpoints} answer, or -1 if none completed yet.
     */
    private static long latestCompletedTriggeredAt(String checkpoints) {
        int latest = checkpoints.indexOf("\"latest\":{\"completed\":{");
        if (latest < 0) {
            return -1;
        }
        Matcher matcher = Pattern.compile("\"trigger_timestamp\":(\\d+)").matcher(checkpoints);
        return matcher.find(latest) ? Long.parseLong(matcher.group(1)) : -1;
    }

    private static int count(String checkpoints, String field) {
        Matcher matcher = Pattern.compile("\"" + field + "\":(\\d+)").matcher(checkpoints);
        return matcher.find() ? Integer.parseInt(matcher.group(1)) : 0;
    }

    private static void assertEveryRecordExactlyOnce(S3Client s3) {
        BitSet seen = new BitSet((int) RECORDS);
        List<Long> duplicates = new ArrayList<>();
        List<S3Object> objects = new ArrayList<>();
        s3.listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix(OUTPUT))
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

    /** {@link FileSinkJob}'s classes and {@code connector}, the cluster's flink-connector-files (not in lib/). */
    private static Path jobJar(Path jar, Path connector) throws IOException, URISyntaxException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, FileSinkJob.class.getName());
        Path classes = Path.of(FileSinkJob.class
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
