package dev.flinks3.bench.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Where the benchmark's S3 server keeps its objects. S3Proxy's filesystem backend writes every part of a
 * multipart upload to a file and copies the parts into the object at completion: twice the disk writes of
 * one PutObject of the same bytes, on the disk the contenders share. Real S3 charges the client for
 * neither, so the server's objects go to memory (tmpfs, {@code /dev/shm}) when it has room for what the
 * run stores at once, and the report says where they went. Immutable.
 */
public final class ServerStorage {

    /** The {@code --server-storage} choices. */
    public enum Choice {
        /** tmpfs when it and the machine's available memory have room, else the output folder's disk. */
        AUTO,
        /** tmpfs, or a usage error naming what is missing. */
        TMPFS,
        /** The output folder's disk. */
        DISK;

        /**
         * The choice a {@code --server-storage} value names, in any case.
         *
         * @throws UsageException naming the allowed values
         */
        public static Choice parse(String value) {
            for (Choice choice : values()) {
                if (choice.name().equalsIgnoreCase(value.trim())) {
                    return choice;
                }
            }
            throw new UsageException("--server-storage must be auto, tmpfs or disk, was '" + value + "'");
        }
    }

    static final Path TMPFS = Path.of("/dev/shm");
    private static final Path MEMINFO = Path.of("/proc/meminfo");
    /** Memory kept free beside the objects for the JVMs and the page cache, in bytes. */
    static final long MEMORY_MARGIN_BYTES = 4L << 30;

    private final Path dir;
    private final boolean inMemory;
    private final String description;

    private ServerStorage(Path dir, boolean inMemory, String description) {
        this.dir = dir;
        this.inMemory = inMemory;
        this.description = description;
    }

    /**
     * Chooses the storage for a run.
     *
     * @param choice the user's choice
     * @param diskDir the folder on disk to use when not in memory (created by the server)
     * @param neededBytes the most bytes the run stores at once, in bytes
     * @throws UsageException for {@link Choice#TMPFS} when tmpfs is missing or has no room
     * @throws IOException if the tmpfs folder cannot be created
     */
    public static ServerStorage choose(Choice choice, Path diskDir, long neededBytes) throws IOException {
        if (choice == Choice.DISK) {
            return onDisk(diskDir, "disk, " + diskDir + " (--server-storage disk)");
        }
        String lacking = tmpfsLacks(neededBytes, TMPFS, availableMemoryBytes());
        if (lacking == null) {
            Path dir = Files.createTempDirectory(TMPFS, "flinks3-s3-server-");
            return new ServerStorage(
                    dir, true, "tmpfs, " + dir + " (room for the " + gib(neededBytes) + " the run stores at once)");
        }
        if (choice == Choice.TMPFS) {
            throw new UsageException("--server-storage tmpfs: " + lacking);
        }
        return onDisk(diskDir, "disk, " + diskDir + " (tmpfs not used: " + lacking + ")");
    }

    /**
     * The objects in the S3 server JVM's heap ({@code --server-mode benchmark}); {@code dir} is only the
     * server's unused base folder.
     *
     * @param neededBytes the most bytes the run is expected to store at once
     * @param maxHeapBytes the server JVM's maximum heap, in bytes
     * @throws UsageException if that heap cannot hold {@code neededBytes} with 1 GiB beside it
     */
    public static ServerStorage inHeap(Path dir, long neededBytes, long maxHeapBytes) {
        long wanted = neededBytes + (1L << 30);
        if (maxHeapBytes < wanted) {
            throw new UsageException("--server-mode benchmark keeps the S3 server's objects in its JVM's heap: the run"
                    + " stores up to " + gib(neededBytes) + ", the heap is at most " + gib(maxHeapBytes)
                    + "; give the JVM -Xmx" + (wanted >> 30) + "g or more, or use --server-mode full");
        }
        return new ServerStorage(
                dir,
                false,
                "the server JVM's heap (--server-mode benchmark: objects in memory, parts joined without copying,"
                        + " signatures accepted unverified; room for the " + gib(neededBytes)
                        + " the run stores at once)");
    }

    private static ServerStorage onDisk(Path diskDir, String description) {
        return new ServerStorage(diskDir, false, description);
    }

    /** Why tmpfs at {@code tmpfs} cannot hold {@code neededBytes}, or {@code null} if it can. */
    static String tmpfsLacks(long neededBytes, Path tmpfs, long availableMemoryBytes) throws IOException {
        if (!Files.isDirectory(tmpfs) || !Files.isWritable(tmpfs)) {
            return tmpfs + " is not a writable folder";
        }
        long free = Files.getFileStore(tmpfs).getUsableSpace();
        if (free < neededBytes) {
            return tmpfs + " has " + gib(free) + " free, the run stores up to " + gib(neededBytes);
        }
        if (availableMemoryBytes >= 0 && availableMemoryBytes < neededBytes + MEMORY_MARGIN_BYTES) {
            return "the machine has " + gib(availableMemoryBytes) + " of memory available, the run stores up to "
                    + gib(neededBytes) + " and its JVMs need " + gib(MEMORY_MARGIN_BYTES) + " beside that";
        }
        return null;
    }

    /** MemAvailable of {@code /proc/meminfo} in bytes, or -1 where it cannot be read. */
    private static long availableMemoryBytes() {
        try (Stream<String> lines = Files.lines(MEMINFO)) {
            return lines.filter(line -> line.startsWith("MemAvailable:"))
                    .map(line -> Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024)
                    .findFirst()
                    .orElse(-1L);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }

    /** The server's data folder. */
    public Path dir() {
        return dir;
    }

    /** True if the objects are held in memory (tmpfs). */
    public boolean inMemory() {
        return inMemory;
    }

    /** One phrase for a report: where the objects went and why. */
    public String describe() {
        return description;
    }

    /** Deletes the data folder if it is in memory (a disk folder stays with the output it is part of). */
    public void release() throws IOException {
        if (!inMemory || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    @Override
    public String toString() {
        return description;
    }
}
