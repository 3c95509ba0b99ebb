package dev.flinks3.multipart;

import dev.flinks3.transfer.UploadSettings;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Random;
import java.util.zip.CRC32;

/** Random payloads, their checksums and small-part settings for the engine's tests. */
final class TestData {

    static final int MIB = 1024 * 1024;
    /** S3's minimum part size, the smallest the settings accept: 5 MiB. */
    static final int PART = (int) UploadSettings.MIN_PART_SIZE;

    private TestData() {}

    static byte[] random(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    static long crc(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return crc.getValue();
    }

    /** Writes in uneven slices so part boundaries fall inside writes. */
    static void writeInSlices(OutputStream out, byte[] bytes) throws IOException {
        int slice = 100_003;
        for (int at = 0; at < bytes.length; at += slice) {
            out.write(bytes, at, Math.min(slice, bytes.length - at));
        }
    }

    static UploadSettings.Builder settings(int partsInFlight, long bufferLimitBytes) {
        return UploadSettings.builder()
                .partSizeBytes(PART)
                .maxPartsInFlightPerStream(partsInFlight)
                .maxBufferedBytesPerProcess(bufferLimitBytes);
    }
}
