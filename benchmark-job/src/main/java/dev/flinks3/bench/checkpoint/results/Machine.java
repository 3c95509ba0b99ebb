package dev.flinks3.bench.checkpoint.results;

import java.lang.management.ManagementFactory;

/**
 * The machine a benchmark ran on.
 *
 * @param os operating system name and version
 * @param arch CPU architecture
 * @param cores available processors
 * @param memoryBytes physical memory
 * @param java Java runtime version and vendor
 */
public record Machine(String os, String arch, int cores, long memoryBytes, String java) {

    /** This machine. */
    public static Machine current() {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        return new Machine(
                System.getProperty("os.name") + " " + System.getProperty("os.version"),
                System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors(),
                os.getTotalMemorySize(),
                System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vendor") + ")");
    }
}
