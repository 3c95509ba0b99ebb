package dev.flinks3.cluster;

import dev.flinks3.bench.common.FlinkJvmOptions;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.management.remote.JMXServiceURL;
import org.awaitility.Awaitility;

/**
 * A Flink standalone session cluster as Flink's scripts start it, from a {@link FlinkDistribution}'s
 * {@code lib/}: {@code conf/config.yaml} with the caller's keys (the {@code s3.*} ones among them), the
 * plugin jar in {@code plugins/flinks3/}, then one {@code StandaloneSessionClusterEntrypoint} and
 * {@code taskManagers} {@code TaskManagerRunner}s as separate JVMs with {@code FLINK_PLUGINS_DIR} and
 * {@code FLINK_CONF_DIR} set, each with its own log under {@code log/}. Memory and JVM options come from
 * Flink's {@code BashJavaUtils}, as {@code jobmanager.sh} and {@code taskmanager.sh} get them. Every port
 * is a free loopback port. {@link #close} stops every process it started, by PID.
 */
final class StandaloneCluster implements AutoCloseable {

    private static final Pattern EXEC_RESULT = Pattern.compile("BASH_JAVA_UTILS_EXEC_RESULT:(.*)");
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
    /**
     * The key that enables Flink's Prometheus reporter named {@code prom} (as the k8s manifests name it);
     * where the configuration has it, every process gets a port of its own ({@link #prometheusUrl}).
     */
    static final String PROMETHEUS_FACTORY = "metrics.reporter.prom.factory.class";

    private static final String PROMETHEUS_PORT = "metrics.reporter.prom.port";

    /** The JVM options Flink's scripts pass to every Flink JVM (one list, the soak's process cluster uses it too). */
    static final List<String> FLINK_JAVA_OPTIONS = FlinkJvmOptions.MODULE_ACCESS;

    private final FlinkDistribution flink;
    private final Path home;
    private final int restPort;
    private final JavaProcess jobManager;
    private final List<JavaProcess> taskManagers = new ArrayList<>();
    private final List<Integer> taskManagerJmxPorts = new ArrayList<>();
    private final List<Integer> exporterPorts = new ArrayList<>();
    private final Map<JavaProcess, Integer> metricsPorts = new LinkedHashMap<>();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private StandaloneCluster(FlinkDistribution flink, Path home, int restPort, JavaProcess jobManager) {
        this.flink = flink;
        this.home = home;
        this.restPort = restPort;
        this.jobManager = jobManager;
    }

    /**
     * Writes the installation under {@code home} and starts the cluster; returns once the REST API lists
     * every TaskManager.
     *
     * @param configuration keys added to {@code config.yaml} (after the cluster's addresses, ports and
     *     memory, which they may override)
     */
    static StandaloneCluster start(
            FlinkDistribution flink, Path home, int taskManagers, Map<String, String> configuration) throws Exception {
        return start(flink, home, taskManagers, configuration, Map.of());
    }

    /**
     * Like {@link #start(FlinkDistribution, Path, int, Map)}, with more plugins installed beside ours.
     *
     * @param morePlugins jars by the folder under {@code plugins/} they go to, e.g. Flink's Prometheus
     *     reporter in {@code metrics-prometheus}, as Flink's images ship it
     */
    static StandaloneCluster start(
            FlinkDistribution flink,
            Path home,
            int taskManagers,
            Map<String, String> configuration,
            Map<String, Path> morePlugins)
            throws Exception {
        return start(flink, home, taskManagers, configuration, morePlugins, null);
    }

    /**
     * Like {@link #start(FlinkDistribution, Path, int, Map, Map)}, each TaskManager with the Prometheus JMX
     * exporter java agent (the jar of system property {@code flinks3.jmx.exporter.agent}, fetched from Maven
     * Central by this module's pom) loaded with {@code exporterConfig}, as the k8s manifests load it, serving on
     * a loopback port of its own ({@link #exporterUrl}).
     *
     * @param exporterConfig the agent's configuration, or {@code null} for no agent
     */
    static StandaloneCluster start(
            FlinkDistribution flink,
            Path home,
            int taskManagers,
            Map<String, String> configuration,
            Map<String, Path> morePlugins,
            Path exporterConfig)
            throws Exception {
        Path plugins = FlinkDistribution.installPlugin(home, FlinkDistribution.pluginJar());
        for (Map.Entry<String, Path> plugin : morePlugins.entrySet()) {
            Path dir = Files.createDirectories(plugins.resolve(plugin.getKey()));
            Files.copy(
                    plugin.getValue(),
                    dir.resolve(plugin.getValue().getFileName()),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        Path conf = Files.createDirectories(home.resolve("conf"));
        Path logs = Files.createDirectories(home.resolve("log"));
        int restPort = freePort();
        Map<String, String> config = new LinkedHashMap<>();
        config.put("jobmanager.rpc.address", "127.0.0.1");
        config.put("jobmanager.rpc.port", String.valueOf(freePort()));
        config.put("jobmanager.bind-host", "127.0.0.1");
        config.put("rest.address", "127.0.0.1");
        config.put("rest.bind-address", "127.0.0.1");
        config.put("rest.port", String.valueOf(restPort));
        config.put("blob.server.port", String.valueOf(freePort()));
        config.put("taskmanager.host", "127.0.0.1");
        config.put("taskmanager.bind-host", "127.0.0.1");
        config.put("taskmanager.rpc.port", "0");
        config.put("taskmanager.data.port", "0");
        config.put("taskmanager.numberOfTaskSlots", "2");
        config.put("jobmanager.memory.process.size", "768m");
        config.put("taskmanager.memory.process.size", "1g");
        config.put("taskmanager.memory.managed.size", "128m");
        // Generous RPC timeouts: CI machines are small and shared (Flink's defaults: 10 s).
        config.put("pekko.startup-timeout", "60 s");
        config.put("pekko.ask.timeout", "60 s");
        config.put("env.java.opts.all", String.join(" ", FLINK_JAVA_OPTIONS));
        config.put("io.tmp.dirs", Files.createDirectories(home.resolve("tmp")).toString());
        config.putAll(configuration);
        StringBuilder yaml = new StringBuilder();
        config.forEach((key, value) ->
                yaml.append(key).append(": ").append(quote(value)).append('\n'));
        Files.writeString(conf.resolve("config.yaml"), yaml);
        Files.writeString(conf.resolve("log4j.properties"), LOG4J);

        Map<String, String> environment = Map.of(
                "FLINK_PLUGINS_DIR", plugins.toString(),
                "FLINK_CONF_DIR", conf.toString(),
                "FLINK_LOG_DIR", logs.toString());
        boolean prometheus = config.containsKey(PROMETHEUS_FACTORY);
        int jobManagerMetricsPort = freePort();
        JavaProcess jobManager = flinkProcess(
                flink,
                "jobmanager",
                "GET_JM_RESOURCE_PARAMS",
                "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                conf,
                environment,
                logs,
                List.of(),
                prometheus ? List.of("-D", PROMETHEUS_PORT + "=" + jobManagerMetricsPort) : List.of());
        StandaloneCluster cluster = new StandaloneCluster(flink, home, restPort, jobManager);
        cluster.metricsPorts.put(jobManager, jobManagerMetricsPort);
        try {
            // TaskManagers after the JobManager is up, as start-cluster.sh does in effect; starting all at
            // once on a busy machine can starve the JobManager's RPC start past Pekko's fixed 10 s.
            cluster.awaitTaskManagers(0);
            for (int i = 0; i < taskManagers; i++) {
                int jmxPort = freePort();
                int metricsPort = freePort();
                List<String> jvmOptions = new ArrayList<>(jmxOptions(jmxPort));
                if (exporterConfig != null) {
                    int exporterPort = freePort();
                    jvmOptions.add(
                            "-javaagent:" + exporterAgent() + "=127.0.0.1:" + exporterPort + ":" + exporterConfig);
                    cluster.exporterPorts.add(exporterPort);
                }
                JavaProcess taskManager = flinkProcess(
                        flink,
                        "taskmanager-" + i,
                        "GET_TM_RESOURCE_PARAMS",
                        "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
                        conf,
                        environment,
                        logs,
                        jvmOptions,
                        prometheus ? List.of("-D", PROMETHEUS_PORT + "=" + metricsPort) : List.of());
                cluster.taskManagers.add(taskManager);
                cluster.taskManagerJmxPorts.add(jmxPort);
                cluster.metricsPorts.put(taskManager, metricsPort);
            }
            cluster.awaitTaskManagers(taskManagers);
            return cluster;
        } catch (Exception | AssertionError e) {
            cluster.close();
            throw new IllegalStateException(
                    "The cluster did not start (" + e + "); its logs end:\n" + cluster.logTails(), e);
        }
    }

    /**
     * The Flink versions the cluster tests run on: system property {@code flinks3.cluster.flink.versions}
     * (set in this module's pom), the newest release and the long-term-support line by default.
     */
    static Stream<String> testedVersions() {
        return Arrays.stream(System.getProperty("flinks3.cluster.flink.versions", "2.3.0,1.20.5")
                        .split(","))
                .map(String::trim)
                .filter(v -> !v.isEmpty());
    }

    /** The JobManager's REST API, {@code http://127.0.0.1:<port>}. */
    URI restUrl() {
        return URI.create("http://127.0.0.1:" + restPort);
    }

    /** The configuration folder ({@code FLINK_CONF_DIR} of the CLI). */
    Path conf() {
        return home.resolve("conf");
    }

    List<JavaProcess> taskManagers() {
        return taskManagers;
    }

    /**
     * The JMX connector of TaskManager {@code index}'s platform MBean server, on loopback without
     * authentication (what {@code -Dcom.sun.management.jmxremote.port} in {@code env.java.opts.taskmanager}
     * gives a TaskManager that has a host of its own, as a pod does).
     */
    JMXServiceURL taskManagerJmx(int index) throws IOException {
        return new JMXServiceURL(
                "service:jmx:rmi:///jndi/rmi://127.0.0.1:" + taskManagerJmxPorts.get(index) + "/jmxrmi");
    }

    /** The {@code /metrics} endpoint of TaskManager {@code index}'s JMX exporter agent. */
    URI exporterUrl(int index) {
        return URI.create("http://127.0.0.1:" + exporterPorts.get(index) + "/metrics");
    }

    /** The JMX exporter agent's jar (system property {@code flinks3.jmx.exporter.agent}, set by this module's pom). */
    static Path exporterAgent() {
        Path jar = Path.of(System.getProperty(
                        "flinks3.jmx.exporter.agent", "target/jmx-exporter/jmx_prometheus_javaagent.jar"))
                .toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("The JMX exporter agent " + jar + " is missing: this module's pom copies"
                    + " it from Maven Central (run the tests with Maven)");
        }
        return jar;
    }

    /** The {@code /metrics} endpoint of {@code process}'s Prometheus reporter. */
    URI prometheusUrl(JavaProcess process) {
        return URI.create("http://127.0.0.1:" + metricsPorts.get(process) + "/metrics");
    }

    JavaProcess jobManager() {
        return jobManager;
    }

    /** {@code GET path} on the REST API; the body. */
    String get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(restUrl().resolve(path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + path + ": HTTP " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }

    /**
     * Runs Flink's CLI ({@code CliFrontend}, what {@code bin/flink} runs) with {@code args} against this
     * cluster, on {@code lib/}'s class path and this cluster's {@code conf/}.
     */
    JavaProcess cli(String name, List<String> args) throws IOException {
        return JavaProcess.start(
                name,
                flink.lib(),
                jvmOptions("-Xmx256m", "-Dlog4j.configurationFile=" + conf().resolve("log4j.properties")),
                "org.apache.flink.client.cli.CliFrontend",
                args,
                Map.of(
                        "FLINK_CONF_DIR",
                        conf().toString(),
                        "FLINK_PLUGINS_DIR",
                        home.resolve("plugins").toString()),
                home.resolve("log").resolve(name + ".log"));
    }

    /** Waits until the REST API answers and lists {@code count} registered TaskManagers. */
    void awaitTaskManagers(int count) {
        Awaitility.await("" + count + " TaskManagers registered at " + restUrl())
                .atMost(START_TIMEOUT)
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .failFast(
                        "a cluster process exited",
                        () -> !jobManager.isAlive() || taskManagers.stream().anyMatch(tm -> !tm.isAlive()))
                .until(() -> countOf("\"id\"", get("/taskmanagers")) >= count);
    }

    /** The last lines of every process's log, for failure messages. */
    String logTails() {
        StringBuilder tails = new StringBuilder();
        List<JavaProcess> all = new ArrayList<>(List.of(jobManager));
        all.addAll(taskManagers);
        for (JavaProcess process : all) {
            tails.append("---- ").append(process).append('\n');
            try {
                tails.append(process.logTail(3_000)).append('\n');
            } catch (IOException e) {
                tails.append("(unreadable: ").append(e).append(")\n");
            }
        }
        return tails.toString();
    }

    @Override
    public void close() throws InterruptedException {
        for (JavaProcess taskManager : taskManagers) {
            taskManager.stop();
        }
        jobManager.stop();
    }

    private static JavaProcess flinkProcess(
            FlinkDistribution flink,
            String name,
            String resourceCommand,
            String mainClass,
            Path conf,
            Map<String, String> environment,
            Path logs,
            List<String> moreJvmOptions,
            List<String> moreDynamicOptions)
            throws Exception {
        List<String> resources = bashJavaUtils(flink, resourceCommand, conf, logs.resolve(name + "-resources.log"));
        List<String> jvm = new ArrayList<>(FLINK_JAVA_OPTIONS);
        jvm.addAll(moreJvmOptions);
        jvm.addAll(Arrays.asList(resources.get(0).trim().split("\\s+")));
        jvm.add("-Dlog.file=" + logs.resolve(name + ".log"));
        jvm.add("-Dlog4j.configurationFile=" + conf.resolve("log4j.properties"));
        List<String> args = new ArrayList<>(List.of("--configDir", conf.toString()));
        if (resources.size() > 1) {
            args.addAll(Arrays.asList(resources.get(resources.size() - 1).trim().split("\\s+")));
        }
        args.addAll(moreDynamicOptions);
        return JavaProcess.start(name, flink.lib(), jvm, mainClass, args, environment, logs.resolve(name + ".out"));
    }

    /** Flink's {@code BashJavaUtils} lines as the launch scripts read them: JVM options, then dynamic options. */
    private static List<String> bashJavaUtils(FlinkDistribution flink, String command, Path conf, Path log)
            throws Exception {
        JavaProcess utils = JavaProcess.start(
                "BashJavaUtils " + command,
                flink.lib(),
                List.of("-Xmx128m", "-Dlog4j.configurationFile=" + conf.resolve("log4j.properties")),
                "org.apache.flink.runtime.util.bash.BashJavaUtils",
                List.of(command, "--configDir", conf.toString()),
                Map.of("FLINK_CONF_DIR", conf.toString()),
                log);
        int exit = utils.waitFor(Duration.ofMinutes(1));
        String output = utils.log();
        List<String> results = new ArrayList<>();
        Matcher matcher = EXEC_RESULT.matcher(output);
        while (matcher.find()) {
            results.add(matcher.group(1));
        }
        if (exit != 0 || results.isEmpty()) {
            throw new IllegalStateException("BashJavaUtils " + command + " failed (exit " + exit + "):\n" + output);
        }
        return results;
    }

    private static List<String> jmxOptions(int port) {
        return List.of(
                "-Dcom.sun.management.jmxremote.port=" + port,
                "-Dcom.sun.management.jmxremote.rmi.port=" + port,
                "-Dcom.sun.management.jmxremote.host=127.0.0.1",
                "-Djava.rmi.server.hostname=127.0.0.1",
                "-Dcom.sun.management.jmxremote.authenticate=false",
                "-Dcom.sun.management.jmxremote.ssl=false");
    }

    private static List<String> jvmOptions(String... more) {
        List<String> options = new ArrayList<>(FLINK_JAVA_OPTIONS);
        options.addAll(List.of(more));
        return options;
    }

    private static int countOf(String needle, String text) {
        int count = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            count++;
        }
        return count;
    }

    private static String quote(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static final String LOG4J = String.join(
            "\n",
            "rootLogger.level = INFO",
            "rootLogger.appenderRef.out.ref = Out",
            "appender.out.type = Console",
            "appender.out.name = Out",
            "appender.out.layout.type = PatternLayout",
            "appender.out.layout.pattern = %d{HH:mm:ss,SSS} %-5p %-60c %x - %m%n",
            "logger.akka.name = org.apache.pekko",
            "logger.akka.level = WARN",
            "logger.zookeeper.name = org.apache.zookeeper",
            "logger.zookeeper.level = WARN",
            "");
}
