package dev.flinks3.bench.soak;

import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * The figures a soak samples and judges: most per process ({@link SoakSample}), two at the S3 server ({@link
 * ServerSample}). Each has its unit and its scale for the report; its limits are in {@link SoakRules}.
 */
public enum SoakFigure {
    HEAP_AFTER_GC("heap after GC", "MB", 1e6, SoakSample::heapAfterGcBytes),
    THREADS("threads (but Flink's RPC dispatchers)", "threads", 1, SoakSample::threads),
    FILE_DESCRIPTORS(
            "open file descriptors (but connections to S3 and RocksDB's database files)",
            "descriptors",
            1,
            SoakSample::openFileDescriptors),
    CONNECTIONS("TCP connections to the S3 endpoint", "connections", 1, SoakSample::connectionsOpen),
    CONNECTIONS_OUTSIDE_POOLS(
            "TCP connections to the S3 endpoint outside the plugin's HTTP pools",
            "connections",
            1,
            SoakSample::connectionsOutsidePools),
    POOL_LEASED("HTTP pool connections leased (plugin's gauge)", "connections", 1, SoakSample::poolLeased),
    POOL_IDLE("HTTP pool connections idle (plugin's gauge)", "connections", 1, SoakSample::poolIdle),
    TEMPORARY_FILES(
            "temporary files older than " + SoakSampler.TEMPORARY_FILE_MIN_AGE.toSeconds() + " s",
            "files",
            1,
            SoakSample::temporaryFiles),
    UPLOADS_BY_PLUGIN("multipart uploads open (plugin's count)", "uploads", 1, SoakSample::uploadsOpenByPlugin),
    BUFFERED("bytes in upload part buffers", "MB", 1e6, SoakSample::bufferedBytes),
    READ_AHEAD("bytes in read-ahead windows", "MB", 1e6, SoakSample::readAheadBytes),
    PARTS_IN_FLIGHT("UploadParts in flight", "parts", 1, SoakSample::partsInFlight),
    UPLOADS_LIVE_AT_SERVER(
            "multipart uploads open at the server, started since the last stop",
            "uploads",
            1,
            null,
            ServerSample::live),
    UPLOADS_ABANDONED_AT_SERVER(
            "multipart uploads open at the server, open at a stop already (abandoned)",
            "uploads",
            1,
            null,
            ServerSample::abandoned);

    final String title;
    final String unit;
    final double scale;
    /** The reading of a process sample; null for a figure of the server. */
    final ToLongFunction<SoakSample> process;
    /** The reading of a server sample; null for a figure of a process. */
    final ToLongFunction<ServerSample> server;

    SoakFigure(String title, String unit, double scale, ToLongFunction<SoakSample> process) {
        this(title, unit, scale, process, null);
    }

    SoakFigure(
            String title,
            String unit,
            double scale,
            ToLongFunction<SoakSample> process,
            ToLongFunction<ServerSample> server) {
        this.title = title;
        this.unit = unit;
        this.scale = scale;
        this.process = process;
        this.server = server;
    }

    /** Whether the S3 server's listing gives this figure, not a process. */
    boolean atServer() {
        return server != null;
    }

    /** The chart's file name. */
    String chartFile() {
        return "soak-" + name().toLowerCase(Locale.ROOT).replace('_', '-') + ".png";
    }
}
