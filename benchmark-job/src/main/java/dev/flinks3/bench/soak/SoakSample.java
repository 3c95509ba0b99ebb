package dev.flinks3.bench.soak;

/**
 * One reading of one Flink process during a soak (the MiniCluster's JVM, or a JobManager or TaskManager process of
 * the process cluster). Gauges, read at {@code epochMillis}; -1 where a figure could not be read.
 *
 * @param epochMillis when it was read
 * @param process the process's name: {@code minicluster}, {@code jobmanager}, {@code taskmanager-<n>}
 * @param generation 0 for the first process of that name, one more for each process started in its place after a
 *     kill
 * @param pid the operating system's process id
 * @param heapAfterGcBytes heap in use right after a full collection asked for at this reading, bytes
 * @param threads live threads of the JVM
 * @param openFileDescriptors entries of {@code /proc/<pid>/fd}, except files under a RocksDB database folder
 *     ({@code .../db/...} below the process's temporary folders: RocksDB opens and closes those with compactions) and
 *     the connections to the S3 endpoint (counted in {@code connectionsOpen})
 * @param connectionsOpen the process's TCP sockets whose remote port is the S3 endpoint's, in any state (a
 *     connection the server closed and the process still holds is one it leaked)
 * @param poolLeased connections leased from the plugin's HTTP pools (its gauge, {@link PluginGauges})
 * @param poolIdle idle connections kept in the plugin's HTTP pools (its gauge)
 * @param temporaryFiles files under the process's temporary folders older than {@link
 *     SoakSampler#TEMPORARY_FILE_MIN_AGE}, RocksDB's database folders left out
 * @param uploadsOpenByPlugin multipart uploads the plugin of this process started and must still complete or abort
 *     (its {@code MultipartUploadsOpen} gauge: uploads handed to a checkpoint are not among them)
 * @param bufferedBytes bytes held in the plugin's upload part buffers
 * @param readAheadBytes bytes held in the plugin's read-ahead windows
 * @param partsInFlight UploadParts sent and not yet answered
 */
public record SoakSample(
        long epochMillis,
        String process,
        int generation,
        long pid,
        long heapAfterGcBytes,
        long threads,
        long openFileDescriptors,
        long connectionsOpen,
        long poolLeased,
        long poolIdle,
        long temporaryFiles,
        long uploadsOpenByPlugin,
        long bufferedBytes,
        long readAheadBytes,
        long partsInFlight) {

    /**
     * The connections to the S3 endpoint that neither of the plugin's HTTP pools holds, leased or idle: connections
     * the process holds outside them (at least 0; -1 without the pools' gauges).
     */
    public long connectionsOutsidePools() {
        if (connectionsOpen < 0 || poolLeased < 0 || poolIdle < 0) {
            return -1;
        }
        return Math.max(0, connectionsOpen - poolLeased - poolIdle);
    }
}
