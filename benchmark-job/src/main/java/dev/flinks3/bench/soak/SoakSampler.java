package dev.flinks3.bench.soak;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Reads a {@link SoakSample} of this JVM: the heap after a full collection ({@link MemoryMXBean#gc()}, then the
 * heap in use), the filesystem plugin's gauges from its platform MBeans ({@code dev.flinks3:type=S3FileSystem,*},
 * summed over its filesystem configurations), the threads, {@code /proc/self/fd}, the TCP connections to the S3
 * endpoint ({@code /proc/self/net/tcp} and {@code tcp6} entries in state ESTABLISHED whose socket is one of this
 * process's), the temporary files that outlived a minimum age and the multipart uploads open at
 * the server. Linux only for descriptors and connections (-1 elsewhere). Not thread-safe.
 *
 * <p>A temporary file counts once its inode is older than that age ({@link #TEMPORARY_FILE_MIN_AGE} in a soak): a full checkpoint's
 * local RocksDB snapshot ({@code .../chk-N/}, hard links of the SST files plus MANIFEST and OPTIONS) lives while
 * that checkpoint uploads and a restore's downloads while it restores, so a count of every file reads 0 or 16 by
 * chance of the moment; a file still there after that age is one nobody deleted. The age is the inode's change
 * time ({@code unix:ctime}, set when a hard link is made, where the linked SST file's modification time is that of
 * the original), the modification time where the filesystem gives no change time.
 */
final class SoakSampler {

    private static final String ESTABLISHED = "01";

    /** How old a temporary file must be to count: longer than a checkpoint's upload or a restore takes here. */
    static final Duration TEMPORARY_FILE_MIN_AGE = Duration.ofSeconds(30);

    private final MBeanServer mbeans = ManagementFactory.getPlatformMBeanServer();
    private final int endpointPort;
    private final List<Path> temporaryDirs;
    private final Duration temporaryFileMinAge;
    private final LongSupplier uploadsAtServer;

    /**
     * @param endpointPort the S3 endpoint's TCP port
     * @param temporaryDirs the folders whose files count as temporary files
     * @param temporaryFileMinAge how old a file must be to count ({@link #TEMPORARY_FILE_MIN_AGE} in a soak)
     * @param uploadsAtServer the multipart uploads open at the server now, or -1 if they cannot be listed
     */
    SoakSampler(
            int endpointPort, List<Path> temporaryDirs, Duration temporaryFileMinAge, LongSupplier uploadsAtServer) {
        this.endpointPort = endpointPort;
        this.temporaryDirs = List.copyOf(temporaryDirs);
        this.temporaryFileMinAge = temporaryFileMinAge;
        this.uploadsAtServer = uploadsAtServer;
    }

    SoakSample sample() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        memory.gc();
        long heap = memory.getHeapMemoryUsage().getUsed();
        return new SoakSample(
                System.currentTimeMillis(),
                heap,
                pluginSum("BufferedBytes"),
                pluginSum("ReadAheadBytes"),
                pluginSum("PartsInFlight"),
                openUploadsByClient(),
                connectionsToEndpoint(),
                ManagementFactory.getThreadMXBean().getThreadCount(),
                openFileDescriptors(),
                temporaryFiles(),
                uploadsAtServer.getAsLong());
    }

    private long openUploadsByClient() {
        long started = pluginSum("MultipartUploadsStartedTotal");
        if (started < 0) {
            return -1;
        }
        return started - pluginSum("MultipartUploadsCompletedTotal") - pluginSum("MultipartUploadsAbortedTotal");
    }

    /** An attribute summed over the plugin's filesystem MBeans; -1 without any. */
    private long pluginSum(String attribute) {
        try {
            Set<ObjectName> names = mbeans.queryNames(new ObjectName("dev.flinks3:type=S3FileSystem,*"), null);
            if (names.isEmpty()) {
                return -1;
            }
            long sum = 0;
            for (ObjectName name : names) {
                sum += ((Number) mbeans.getAttribute(name, attribute)).longValue();
            }
            return sum;
        } catch (JMException | RuntimeException e) {
            return -1;
        }
    }

    private static long openFileDescriptors() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The inodes of this process's sockets. */
    private static Set<String> socketInodes() throws IOException {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException e) {
                    // Closed since it was listed.
                }
            }
        }
        return inodes;
    }

    private long connectionsToEndpoint() {
        try {
            Set<String> inodes = socketInodes();
            String port = String.format(Locale.ROOT, "%04X", endpointPort);
            long count = 0;
            for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
                Path path = Path.of(table);
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
                    if (remotePort.equals(port) && ESTABLISHED.equals(fields[3]) && inodes.contains(fields[9])) {
                        count++;
                    }
                }
            }
            return count;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The temporary files older than the minimum age, outside RocksDB's database folders. */
    long temporaryFiles() {
        long bornBefore = System.currentTimeMillis() - temporaryFileMinAge.toMillis();
        long count = 0;
        for (Path dir : temporaryDirs) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> paths = Files.walk(dir)) {
                count += paths.filter(Files::isRegularFile)
                        .filter(p -> !insideRocksDb(dir.relativize(p)))
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

    private static boolean insideRocksDb(Path relative) {
        for (Path part : relative) {
            if (part.toString().equals("db")) {
                return true;
            }
        }
        return false;
    }
}
