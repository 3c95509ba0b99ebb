package dev.flinks3.bench.soak;

/**
 * One reading of the process that runs the MiniCluster (its TaskManager and the filesystem plugin) during a soak.
 * Gauges, read at {@code epochMillis}; -1 where a figure could not be read.
 *
 * @param epochMillis when it was read
 * @param heapAfterGcBytes heap in use right after a full collection asked for at this reading, bytes
 * @param bufferedBytes bytes held in the plugin's upload part buffers ({@code BufferedBytes} of its MBeans)
 * @param readAheadBytes bytes held in the plugin's read-ahead windows ({@code ReadAheadBytes})
 * @param partsInFlight UploadParts sent and not yet answered ({@code PartsInFlight})
 * @param uploadsOpenByClient multipart uploads the plugin started and neither completed nor aborted
 * @param connectionsOpen TCP connections of this process to the S3 endpoint's port that are ESTABLISHED
 * @param threads live threads of the JVM
 * @param openFileDescriptors entries of {@code /proc/self/fd}
 * @param temporaryFiles files under the process's temporary folders ({@code io.tmp.dirs}, {@code java.io.tmpdir})
 *     older than {@link SoakSampler#TEMPORARY_FILE_MIN_AGE}, RocksDB's database folders left out (their SST files
 *     come and go with compaction)
 * @param uploadsOpenAtServer multipart uploads under the run's prefix the server lists (ListMultipartUploads)
 */
public record SoakSample(
        long epochMillis,
        long heapAfterGcBytes,
        long bufferedBytes,
        long readAheadBytes,
        long partsInFlight,
        long uploadsOpenByClient,
        long connectionsOpen,
        long threads,
        long openFileDescriptors,
        long temporaryFiles,
        long uploadsOpenAtServer) {}
