package dev.flinks3.bench.soak;

import java.util.function.ToLongFunction;

/**
 * The figures a soak samples, each with its unit, its scale for the report and the absolute noise floor of its
 * {@link Trend} verdict (what one more thread, connection or part in flight at the moment of a sample adds).
 */
enum SoakFigure {
    HEAP_AFTER_GC("heap after GC", "MB", 1e6, 16, SoakSample::heapAfterGcBytes),
    BUFFERED("bytes in upload part buffers", "MB", 1e6, 64, SoakSample::bufferedBytes),
    READ_AHEAD("bytes in read-ahead windows", "MB", 1e6, 16, SoakSample::readAheadBytes),
    PARTS_IN_FLIGHT("UploadParts in flight", "parts", 1, 8, SoakSample::partsInFlight),
    UPLOADS_BY_CLIENT(
            "multipart uploads open (plugin's count)", "uploads", 1, 4, true, SoakSample::uploadsOpenByClient),
    UPLOADS_AT_SERVER("multipart uploads open at the server", "uploads", 1, 4, true, SoakSample::uploadsOpenAtServer),
    CONNECTIONS("TCP connections to the S3 endpoint", "connections", 1, 4, SoakSample::connectionsOpen),
    THREADS("threads", "threads", 1, 4, SoakSample::threads),
    FILE_DESCRIPTORS("open file descriptors", "descriptors", 1, 16, SoakSample::openFileDescriptors),
    TEMPORARY_FILES(
            "temporary files older than " + SoakSampler.TEMPORARY_FILE_MIN_AGE.toSeconds() + " s",
            "files",
            1,
            4,
            SoakSample::temporaryFiles);

    final String title;
    final String unit;
    final double scale;
    final double floor;
    /**
     * Whether the figure may step up at each TaskManager stop (by {@link SoakReport.Bounds#uploadsPerStop()}) and
     * is judged by {@link StopSteps}: the uploads a stopped task leaves open stay until a purge or lifecycle rule
     * takes them.
     */
    final boolean stepsAtStops;

    final ToLongFunction<SoakSample> reading;

    SoakFigure(String title, String unit, double scale, double floor, ToLongFunction<SoakSample> reading) {
        this(title, unit, scale, floor, false, reading);
    }

    SoakFigure(
            String title,
            String unit,
            double scale,
            double floor,
            boolean stepsAtStops,
            ToLongFunction<SoakSample> reading) {
        this.title = title;
        this.unit = unit;
        this.scale = scale;
        this.floor = floor;
        this.stepsAtStops = stepsAtStops;
        this.reading = reading;
    }

    /** The chart's file name. */
    String chartFile() {
        return "soak-" + name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + ".png";
    }
}
