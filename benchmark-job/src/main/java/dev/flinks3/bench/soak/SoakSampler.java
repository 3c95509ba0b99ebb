package dev.flinks3.bench.soak;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.management.MBeanServerConnection;

/**
 * Reads a {@link SoakSample} of one Flink process ({@link SampledProcess}): through its MBean server the heap after a
 * full collection ({@link MemoryMXBean#gc()}, then the heap in use), its threads but Flink's RPC dispatchers ({@link
 * #isRpcDispatcher}) and the plugin's gauges ({@link
 * PluginGauges}); from {@code /proc/<pid>} its TCP sockets to the S3 endpoint (entries of {@code /proc/<pid>/net/tcp}
 * and {@code tcp6} whose inode is one of the process's sockets) and its other file descriptors; and the temporary files
 * under its folders that outlived a minimum age. Linux only for descriptors and connections (-1 elsewhere).
 * Thread-safe.
 *
 * <p>A temporary file counts once its inode is older than that age ({@link #TEMPORARY_FILE_MIN_AGE} in a soak): a full
 * checkpoint's local RocksDB snapshot ({@code .../chk-N/}, hard links of the SST files plus MANIFEST and OPTIONS) lives
 * while that checkpoint uploads and a restore's downloads while it restores, so a count of every file reads 0 or 16 by
 * chance of the moment; a file still there after that age is one nobody deleted. The age is the inode's change time
 * ({@code unix:ctime}, set when a hard link is made, where the linked SST file's modification time is that of the
 * original), the modification time where the filesystem gives no change time.
 */
final class SoakSampler {

    /** How old a temporary file must be to count: longer than a checkpoint's upload or a restore takes here. */
    static final Duration TEMPORARY_FILE_MIN_AGE = Duration.ofSeconds(30);

    /** RocksDB's database folder below a task's temporary folder: its SST files come and go with compaction. */
    private static final String ROCKSDB_FOLDER = "db";

    /** Thread names of Flink's RPC actor systems' dispatchers (Pekko since Flink 1.18, Akka before). */
    private static final Pattern RPC_DISPATCHER = Pattern.compile("(pekko|akka)\\.actor\\.[a-z-]*dispatcher");

    private final int endpointPort;
    private final Duration temporaryFileMinAge;

    /**
     * @param endpointPort the S3 endpoint's TCP port
     * @param temporaryFileMinAge how old a file must be to count ({@link #TEMPORARY_FILE_MIN_AGE} in a soak)
     */
    SoakSampler(int endpointPort, Duration temporaryFileMinAge) {
        this.endpointPort = endpointPort;
        this.temporaryFileMinAge = temporaryFileMinAge;
    }

    /** Reads {@code process} now; a figure that cannot be read is -1. */
    SoakSample sample(SampledProcess process) {
        MBeanServerConnection mbeans = process.mbeans();
        long heap = -1;
        long threads = -1;
        try {
            MemoryMXBean memory = ManagementFactory.newPlatformMXBeanProxy(
                    mbeans, ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class);
            memory.gc();
            heap = memory.getHeapMemoryUsage().getUsed();
            threads = countedThreads(ManagementFactory.newPlatformMXBeanProxy(
                    mbeans, ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class));
        } catch (IOException | RuntimeException e) {
            // The process is going or not yet reachable: its figures read -1 this time.
        }
        Path proc = Path.of("/proc", Long.toString(process.pid()));
        Set<String> endpointSockets = endpointSockets(proc);
        return new SoakSample(
                System.currentTimeMillis(),
                process.name(),
                process.generation(),
                process.pid(),
                heap,
                threads,
                openFileDescriptors(
                        proc, process.temporaryDirs(), endpointSockets == null ? Set.of() : endpointSockets),
                endpointSockets == null ? -1 : endpointSockets.size(),
                PluginGauges.sum(mbeans, PluginGauges.POOL_LEASED),
                PluginGauges.sum(mbeans, PluginGauges.POOL_IDLE),
                temporaryFiles(process.temporaryDirs()),
                PluginGauges.uploadsOpen(mbeans),
                PluginGauges.sum(mbeans, PluginGauges.BUFFERED),
                PluginGauges.sum(mbeans, PluginGauges.READ_AHEAD),
                PluginGauges.sum(mbeans, PluginGauges.PARTS_IN_FLIGHT));
    }

    /**
     * The process's threads but Flink's RPC dispatchers ({@link #isRpcDispatcher}).
     */
    static long countedThreads(ThreadMXBean threads) {
        long count = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && !isRpcDispatcher(info.getThreadName())) {
                count++;
            }
        }
        return count;
    }

    /**
     * Whether a thread is one of Flink's RPC actor system's dispatchers ({@code flink-pekko.actor.default-dispatcher-7},
     * {@code flink-metrics-pekko.actor.internal-dispatcher-3}, {@code akka} before Flink 1.18): fork-join threads
     * Flink's RPC system starts when messages queue and retires when idle, so their number follows the RPC load. In
     * CI's short soak they fell from 7 to 0 over its first nine stops, which hid a thread leaked at every stop (+0.37
     * per stop in all, +1.00 without them).
     */
    static boolean isRpcDispatcher(String threadName) {
        return RPC_DISPATCHER.matcher(threadName).find();
    }

    /**
     * Entries of {@code <proc>/fd}, except files inside a RocksDB database folder below a temporary folder and the
     * sockets in {@code endpointSockets} (the connections to the S3 endpoint, a figure of their own).
     */
    static long openFileDescriptors(Path proc, List<Path> temporaryDirs, Set<String> endpointSockets) {
        try (Stream<Path> fds = Files.list(proc.resolve("fd"))) {
            return fds.map(SoakSampler::linkTarget)
                    .filter(target -> !insideRocksDb(target, temporaryDirs))
                    .filter(target -> !endpointSockets.contains(socketInode(target)))
                    .count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static boolean insideRocksDb(String target, List<Path> temporaryDirs) {
        if (!target.startsWith("/")) {
            return false;
        }
        Path file = Path.of(target);
        for (Path dir : temporaryDirs) {
            Path absolute = dir.toAbsolutePath().normalize();
            if (file.startsWith(absolute) && isInsideRocksDb(absolute.relativize(file))) {
                return true;
            }
        }
        return false;
    }

    private static String linkTarget(Path fd) {
        try {
            return Files.readSymbolicLink(fd).toString();
        } catch (IOException | RuntimeException e) {
            return ""; // closed since it was listed
        }
    }

    /** The inode of a {@code socket:[inode]} link target, or "" for anything else. */
    private static String socketInode(String target) {
        return target.startsWith("socket:[") ? target.substring("socket:[".length(), target.length() - 1) : "";
    }

    /**
     * The inodes of the process's TCP sockets whose remote port is the endpoint's, in any state (a connection the
     * server closed and the process still holds is one it leaked).
     *
     * @return the inodes, or null if they cannot be read
     */
    Set<String> endpointSockets(Path proc) {
        Map<String, String> connections = endpointConnections(proc, endpointPort);
        return connections == null ? null : connections.keySet();
    }

    /**
     * The process's TCP sockets whose remote port is {@code port}: each one's inode and its TCP state as the fourth
     * field of {@code /proc/<pid>/net/tcp} gives it (a hexadecimal code, {@code 01} established, {@code 08} close-wait).
     *
     * @return inode to state, or null if they cannot be read
     */
    static Map<String, String> endpointConnections(Path proc, int port) {
        try {
            Set<String> inodes = new HashSet<>();
            try (Stream<Path> fds = Files.list(proc.resolve("fd"))) {
                fds.map(SoakSampler::linkTarget)
                        .map(SoakSampler::socketInode)
                        .filter(i -> !i.isEmpty())
                        .forEach(inodes::add);
            }
            String hexPort = String.format(Locale.ROOT, "%04X", port);
            Map<String, String> toEndpoint = new HashMap<>();
            for (String table : List.of("tcp", "tcp6")) {
                Path path = proc.resolve("net").resolve(table);
                if (!Files.isReadable(path)) {
                    continue;
                }
                for (String line : Files.readAllLines(path)) {
                    String[] fields = line.trim().split("\\s+");
                    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
                    if (fields.length < 10 || !fields[2].contains(":")) {
                        continue;
                    }
                    String remotePort = fields[2].substring(fields[2].indexOf(':') + 1);
                    if (remotePort.equals(hexPort) && inodes.contains(fields[9])) {
                        toEndpoint.put(fields[9], fields[3]);
                    }
                }
            }
            return toEndpoint;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The temporary files older than the minimum age, outside RocksDB's database folders. */
    long temporaryFiles(List<Path> temporaryDirs) {
        long bornBefore = System.currentTimeMillis() - temporaryFileMinAge.toMillis();
        long count = 0;
        for (Path dir : temporaryDirs) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> paths = Files.walk(dir)) {
                count += paths.filter(Files::isRegularFile)
                        .filter(p -> !isInsideRocksDb(dir.relativize(p)))
                        .filter(p -> changedMillis(p) < bornBefore)
                        .count();
            } catch (IOException | RuntimeException e) {
                // A folder removed while it was walked: count what the next reading sees.
            }
        }
        return count;
    }

    /** The inode's change time, ms; the modification time where there is none; now if the file is gone. */
    static long changedMillis(Path file) {
        try {
            Object changed = Files.getAttribute(file, "unix:ctime", LinkOption.NOFOLLOW_LINKS);
            return ((FileTime) changed).toMillis();
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            try {
                return Files.getLastModifiedTime(file, LinkOption.NOFOLLOW_LINKS)
                        .toMillis();
            } catch (IOException gone) {
                return System.currentTimeMillis();
            }
        } catch (IOException gone) {
            return System.currentTimeMillis();
        }
    }

    private static boolean isInsideRocksDb(Path relative) {
        for (Path part : relative) {
            if (part.toString().equals(ROCKSDB_FOLDER)) {
                return true;
            }
        }
        return false;
    }
}
