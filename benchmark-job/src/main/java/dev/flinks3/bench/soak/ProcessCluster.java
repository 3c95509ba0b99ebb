package dev.flinks3.bench.soak;

import com.sun.tools.attach.VirtualMachine;
import dev.flinks3.bench.checkpoint.rest.FlinkRestClient;
import dev.flinks3.bench.checkpoint.run.RunEvents;
import dev.flinks3.bench.common.FlinkJvmOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessSpec;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessUtils;
import org.apache.flink.runtime.jobmanager.JobManagerProcessSpec;
import org.apache.flink.runtime.jobmanager.JobManagerProcessUtils;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.runtime.util.config.memory.ProcessMemoryUtils;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A Flink standalone session cluster of separate processes, as Flink's {@code jobmanager.sh} and {@code
 * taskmanager.sh} start one: a {@code StandaloneSessionClusterEntrypoint} and {@code TaskManagerRunner}s, each a JVM
 * on the class path of a Flink installation's {@code lib/}, with {@code FLINK_PLUGINS_DIR} pointing at the plugin
 * under test and a {@code config.yaml} of its own (the {@code s3.*} keys among it). Memory options come from Flink's
 * own process-memory utilities, as its scripts get them. {@link #stopTaskManager()} kills a TaskManager with SIGKILL
 * ({@code kill -9}, {@link Process#destroyForcibly()}) and starts a new process in its place, so the plugin starts
 * again in a fresh JVM, as when a pod is killed; {@code taskmanager-0} is never killed (when there are two or more),
 * so one TaskManager lives through every stop and shows what each failover leaves behind in a process.
 *
 * <p>Each process is sampled through JMX (the JDK's attach API starts its local management agent; no port is
 * opened) and {@code /proc/<pid>}. Jobs are submitted through the REST API with the jars the caller names; classes a
 * distribution's {@code flink-dist} jar carries but a {@code lib/} assembled from Flink's module jars lacks (the file
 * connector, ForSt) are taken from this JVM's class path. Not thread-safe.
 */
final class ProcessCluster implements SoakCluster {

    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final String JOB_MANAGER = "jobmanager";
    private static final String TASK_MANAGER = "taskmanager-";

    /** Classes a Flink distribution's lib/ has in its flink-dist jar and a lib/ of Flink's module jars lacks. */
    private static final List<String> DIST_CLASSES = List.of(
            "org/apache/flink/connector/file/sink/FileSink.class",
            "org/apache/flink/state/forst/ForStStateBackend.class",
            "org/forstdb/RocksDB.class");

    private static final String LOG4J = String.join(
            "\n",
            "rootLogger.level = INFO",
            "rootLogger.appenderRef.file.ref = File",
            "appender.file.type = File",
            "appender.file.name = File",
            "appender.file.fileName = ${sys:log.file}",
            "appender.file.layout.type = PatternLayout",
            "appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p [%t] %c{1.} - %m%n",
            "logger.pekko.name = org.apache.pekko",
            "logger.pekko.level = WARN",
            "logger.zookeeper.name = org.apache.zookeeper",
            "logger.zookeeper.level = WARN",
            "");

    /**
     * What the cluster is made of.
     *
     * @param flinkHome a Flink installation of this jar's Flink version: its {@code lib/} is the class path
     * @param pluginsRoot the plugins folder ({@code FLINK_PLUGINS_DIR}) with the plugin under test
     * @param work where the configuration, each process's temporary folder and the logs go
     * @param configuration keys of {@code config.yaml} after the cluster's own (addresses, ports, memory)
     * @param taskManagers TaskManager processes, 1 or more
     * @param slotsPerTaskManager task slots of each
     * @param jvmOptions more options for every Flink JVM (e.g. a system property of a test's plugin)
     * @param jobJars the jars a submitted job ships (the job's classes)
     */
    record Settings(
            Path flinkHome,
            Path pluginsRoot,
            Path work,
            Map<String, String> configuration,
            int taskManagers,
            int slotsPerTaskManager,
            List<String> jvmOptions,
            List<Path> jobJars) {}

    private final Settings settings;
    private final Path conf;
    private final Path logs;
    private final List<Path> classPath;
    private final Configuration flinkConf;
    private final URI rest;
    private final RunEvents events;
    private final FlinkProcess jobManager;
    private final List<FlinkProcess> taskManagers = new ArrayList<>();
    private int nextVictim = 1;

    private ProcessCluster(
            Settings settings,
            Path conf,
            Path logs,
            List<Path> classPath,
            Configuration flinkConf,
            URI rest,
            RunEvents events)
            throws IOException {
        this.settings = settings;
        this.conf = conf;
        this.logs = logs;
        this.classPath = classPath;
        this.flinkConf = flinkConf;
        this.rest = rest;
        this.events = events;
        this.jobManager = startJobManager();
    }

    /**
     * Writes the configuration, starts the JobManager and the TaskManagers, and returns once the REST API lists every
     * TaskManager.
     *
     * @throws IllegalArgumentException if {@code flinkHome} has no {@code lib/} of this jar's Flink version
     * @throws IllegalStateException if the cluster does not come up within 3 minutes (its processes are stopped)
     */
    static ProcessCluster start(Settings settings, RunEvents events) throws Exception {
        List<Path> classPath = classPath(settings.flinkHome());
        Path conf = Files.createDirectories(settings.work().resolve("conf"));
        Path logs = Files.createDirectories(settings.work().resolve("log"));
        int restPort = freePort();
        Map<String, String> config = new LinkedHashMap<>();
        config.put("jobmanager.rpc.address", "127.0.0.1");
        config.put("jobmanager.rpc.port", Integer.toString(freePort()));
        config.put("jobmanager.bind-host", "127.0.0.1");
        config.put("rest.address", "127.0.0.1");
        config.put("rest.bind-address", "127.0.0.1");
        config.put("rest.port", Integer.toString(restPort));
        config.put("blob.server.port", Integer.toString(freePort()));
        config.put("taskmanager.host", "127.0.0.1");
        config.put("taskmanager.bind-host", "127.0.0.1");
        config.put("taskmanager.rpc.port", "0");
        config.put("taskmanager.data.port", "0");
        config.put("taskmanager.numberOfTaskSlots", Integer.toString(settings.slotsPerTaskManager()));
        config.put("jobmanager.memory.process.size", "768m");
        config.put("taskmanager.memory.process.size", "1536m");
        config.put("taskmanager.memory.managed.size", "256m");
        // Subtasks spread over the TaskManagers, so a kill takes some of every job's and leaves the rest running.
        config.put("taskmanager.load-balance.mode", "SLOTS");
        // A killed TaskManager is noticed in seconds, as the soak's recovery times assume.
        config.put("heartbeat.interval", "1000");
        config.put("heartbeat.timeout", "10000");
        // Statistics the soak polls every half second: fresh, and a history no longer than it needs.
        config.put("web.refresh-interval", "500");
        config.put("web.checkpoints.history", "100");
        // Generous RPC timeouts: the machine may be small and shared.
        config.put("pekko.ask.timeout", "60 s");
        config.put("env.java.opts.all", String.join(" ", FlinkJvmOptions.MODULE_ACCESS));
        config.putAll(settings.configuration());
        StringBuilder yaml = new StringBuilder();
        config.forEach((key, value) ->
                yaml.append(key).append(": '").append(value.replace("'", "''")).append("'\n"));
        Files.writeString(conf.resolve("config.yaml"), yaml);
        Files.writeString(conf.resolve("log4j.properties"), LOG4J);
        URI rest = URI.create("http://127.0.0.1:" + restPort);
        ProcessCluster cluster =
                new ProcessCluster(settings, conf, logs, classPath, Configuration.fromMap(config), rest, events);
        try {
            cluster.awaitTaskManagers(0);
            for (int i = 0; i < settings.taskManagers(); i++) {
                cluster.taskManagers.add(cluster.startTaskManager(i, 0));
            }
            cluster.awaitTaskManagers(settings.taskManagers());
            return cluster;
        } catch (Exception | AssertionError e) {
            cluster.close();
            throw new IllegalStateException("the process cluster did not start: " + e + "; logs in " + logs, e);
        }
    }

    @Override
    public Function<Configuration, StreamExecutionEnvironment> environments() {
        List<String> jars = settings.jobJars().stream()
                .map(jar -> jar.toAbsolutePath().toUri().toString())
                .toList();
        return jobConfiguration -> {
            Configuration conf = new Configuration(jobConfiguration);
            conf.set(DeploymentOptions.TARGET, "remote");
            conf.set(RestOptions.ADDRESS, rest.getHost());
            conf.set(RestOptions.PORT, rest.getPort());
            conf.set(PipelineOptions.JARS, jars);
            return new StreamExecutionEnvironment(conf);
        };
    }

    @Override
    public URI restAddress() {
        return rest;
    }

    @Override
    public List<SampledProcess> processes() {
        List<SampledProcess> processes = new ArrayList<>();
        for (FlinkProcess process : all()) {
            MBeanServerConnection mbeans = process.mbeans();
            if (mbeans != null) {
                processes.add(new SampledProcess(
                        process.name, process.generation, process.process.pid(), mbeans, List.of(process.tmp)));
            }
        }
        return processes;
    }

    @Override
    public String stopTaskManager() throws Exception {
        int index = settings.taskManagers() == 1 ? 0 : nextVictim;
        nextVictim = nextVictim + 1 < settings.taskManagers() ? nextVictim + 1 : 1;
        FlinkProcess victim = taskManagers.get(index);
        victim.kill();
        events.line("kill -9 of " + victim + "; starting " + TASK_MANAGER + index + " again");
        taskManagers.set(index, startTaskManager(index, victim.generation + 1));
        deleteRecursively(victim.tmp);
        return victim.name;
    }

    @Override
    public String stopDescription() {
        return "kill -9 (SIGKILL) of a TaskManager process of a standalone cluster (a JobManager and "
                + settings.taskManagers() + " TaskManager JVMs on the class path of " + settings.flinkHome()
                + "/lib, the plugin under " + settings.pluginsRoot() + ") while a checkpoint was in progress,"
                + " then a new TaskManager process in its place: the plugin starts again in a fresh JVM. "
                + (settings.taskManagers() > 1
                        ? TASK_MANAGER + "0 is never killed; the others are killed in turn."
                        : "The one TaskManager is killed each time.")
                + " The JobManager restarts the jobs from their latest completed checkpoints (fixed-delay"
                + " restarts, 1 s).";
    }

    @Override
    public void close() {
        for (FlinkProcess taskManager : taskManagers) {
            taskManager.stop();
        }
        if (jobManager != null) {
            jobManager.stop();
        }
    }

    private List<FlinkProcess> all() {
        List<FlinkProcess> all = new ArrayList<>();
        all.add(jobManager);
        all.addAll(taskManagers);
        return all;
    }

    private FlinkProcess startJobManager() throws IOException {
        JobManagerProcessSpec spec = JobManagerProcessUtils.processSpecFromConfig(flinkConf);
        return start(
                JOB_MANAGER,
                0,
                "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                JobManagerProcessUtils.generateJvmParametersStr(spec, flinkConf),
                JobManagerProcessUtils.generateDynamicConfigsStr(spec));
    }

    private FlinkProcess startTaskManager(int index, int generation) throws IOException {
        TaskExecutorProcessSpec spec = TaskExecutorProcessUtils.processSpecFromConfig(flinkConf);
        return start(
                TASK_MANAGER + index,
                generation,
                "org.apache.flink.runtime.taskexecutor.TaskManagerRunner",
                ProcessMemoryUtils.generateJvmParametersStr(spec),
                TaskExecutorProcessUtils.generateDynamicConfigsStr(spec));
    }

    /**
     * Starts one Flink JVM: Flink's JVM options, the memory options, its own temporary folder and log, then {@code
     * mainClass --configDir <conf>} with the memory's dynamic options.
     */
    private FlinkProcess start(
            String name, int generation, String mainClass, String memoryOptions, String dynamicOptions)
            throws IOException {
        String file = generation == 0 ? name : name + ".g" + generation;
        Path tmp = Files.createDirectories(settings.work().resolve("tmp").resolve(file));
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(FlinkJvmOptions.MODULE_ACCESS);
        command.addAll(Arrays.asList(memoryOptions.trim().split("\\s+")));
        command.add("-Dlog.file=" + logs.resolve(file + ".log"));
        command.add(
                "-Dlog4j.configurationFile=" + conf.resolve("log4j.properties").toUri());
        command.add("-Djava.io.tmpdir=" + tmp);
        command.addAll(settings.jvmOptions());
        command.add("-cp");
        command.add(classPath.stream().map(Path::toString).collect(Collectors.joining(":")));
        command.add(mainClass);
        command.addAll(List.of("--configDir", conf.toString()));
        command.addAll(Arrays.asList(dynamicOptions.trim().split("\\s+")));
        command.addAll(List.of("-D", "io.tmp.dirs=" + tmp));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        logs.resolve(file + ".out").toFile()));
        builder.environment()
                .put(
                        "FLINK_PLUGINS_DIR",
                        settings.pluginsRoot().toAbsolutePath().toString());
        builder.environment().put("FLINK_CONF_DIR", conf.toString());
        builder.environment().put("FLINK_LOG_DIR", logs.toString());
        Process process = builder.start();
        // Should this JVM be stopped, the cluster's processes go with it.
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly, "stop " + file));
        FlinkProcess started = new FlinkProcess(name, generation, process, tmp);
        events.line("started " + started);
        return started;
    }

    private void awaitTaskManagers(int count) throws Exception {
        FlinkRestClient client = new FlinkRestClient(rest);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            for (FlinkProcess process : all()) {
                if (!process.process.isAlive()) {
                    throw new IllegalStateException(process + " exited with code " + process.process.exitValue());
                }
            }
            try {
                if (client.get("/taskmanagers").path("taskmanagers").size() >= count) {
                    return;
                }
            } catch (IOException e) {
                // Not up yet.
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(count + " TaskManagers did not register at " + rest + " within "
                        + START_TIMEOUT.toMinutes() + " min");
            }
            Thread.sleep(500);
        }
    }

    /**
     * {@code flinkHome/lib}'s jars, and the jars of this class path that carry what a distribution's {@code
     * flink-dist} has and that lib/ lacks.
     */
    static List<Path> classPath(Path flinkHome) throws IOException {
        Path lib = flinkHome.resolve("lib");
        if (!Files.isDirectory(lib)) {
            throw new IllegalArgumentException("--flink-home " + flinkHome + " has no lib/ folder: give a Flink "
                    + EnvironmentInformation.getVersion() + " installation (see docs/soak.md)");
        }
        List<Path> jars;
        try (Stream<Path> files = Files.list(lib)) {
            jars = files.filter(f -> f.getFileName().toString().endsWith(".jar"))
                    .sorted()
                    .collect(Collectors.toCollection(ArrayList::new));
        }
        String version = EnvironmentInformation.getVersion();
        boolean sameVersion = jars.stream()
                .map(j -> j.getFileName().toString())
                .anyMatch(
                        n -> n.equals("flink-core-" + version + ".jar") || n.equals("flink-dist-" + version + ".jar"));
        if (!sameVersion) {
            throw new IllegalArgumentException("--flink-home " + flinkHome + "/lib holds no flink-core-" + version
                    + ".jar or flink-dist-" + version + ".jar: the soak's job is built for Flink " + version);
        }
        for (String needed : DIST_CLASSES) {
            if (jars.stream().noneMatch(jar -> contains(jar, needed))) {
                jars.add(jarOf(needed));
            }
        }
        return jars;
    }

    /** The jar of this JVM's class path that holds {@code entry}. */
    private static Path jarOf(String entry) {
        java.net.URL url = ProcessCluster.class.getClassLoader().getResource(entry);
        if (url == null || !"jar".equals(url.getProtocol())) {
            throw new IllegalStateException("no jar on this class path holds " + entry + " (" + url + ")");
        }
        String file = url.getPath();
        return Path.of(URI.create(file.substring(0, file.indexOf("!/"))));
    }

    private static boolean contains(Path jar, String entry) {
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.getEntry(entry) != null;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException | UncheckedIOException e) {
            // A killed process's leftovers: what cannot be deleted now stays in the work folder.
        }
    }

    /** One Flink JVM of the cluster, and its JMX connection once one was made. */
    private static final class FlinkProcess {
        final String name;
        final int generation;
        final Process process;
        final Path tmp;
        private JMXConnector jmx;

        FlinkProcess(String name, int generation, Process process, Path tmp) {
            this.name = name;
            this.generation = generation;
            this.process = process;
            this.tmp = tmp;
        }

        /** The process's platform MBean server, attached on first use; null while it cannot be reached. */
        synchronized MBeanServerConnection mbeans() {
            if (!process.isAlive()) {
                return null;
            }
            try {
                if (jmx == null) {
                    VirtualMachine vm = VirtualMachine.attach(Long.toString(process.pid()));
                    try {
                        jmx = JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent()));
                    } finally {
                        vm.detach();
                    }
                }
                return jmx.getMBeanServerConnection();
            } catch (Exception e) {
                closeJmx();
                return null;
            }
        }

        synchronized void kill() throws InterruptedException {
            closeJmx();
            process.destroyForcibly();
            process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }

        /** SIGTERM (Flink's shutdown hooks run), then SIGKILL after 30 s. */
        synchronized void stop() {
            closeJmx();
            process.destroy();
            try {
                if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }

        private void closeJmx() {
            if (jmx != null) {
                try {
                    jmx.close();
                } catch (IOException e) {
                    // The process is gone.
                }
                jmx = null;
            }
        }

        @Override
        public String toString() {
            return name + (generation == 0 ? "" : " (generation " + generation + ")") + ", pid " + process.pid();
        }
    }
}
