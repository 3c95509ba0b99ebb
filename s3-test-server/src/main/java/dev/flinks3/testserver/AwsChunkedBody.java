package dev.flinks3.testserver;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.Checksum;

/**
 * A request body in {@code aws-chunked} encoding (Amazon S3 API reference, "Signature calculations
 * for the Authorization header: Transferring payload in multiple chunks"): chunks of
 * {@code <hex size>[;chunk-signature=..]\r\n<data>\r\n}, a zero-size chunk, then trailing headers
 * such as {@code x-amz-checksum-crc32c:<base64>} and an empty line. Decoded once from the raw bytes.
 */
final class AwsChunkedBody {

    private final long decodedLength;
    private final Map<String, String> trailers;

    private AwsChunkedBody(long decodedLength, Map<String, String> trailers) {
        this.decodedLength = decodedLength;
        this.trailers = trailers;
    }

    /**
     * Decodes {@code raw}, feeding the data bytes (not the framing) to {@code checksum}.
     *
     * @throws IOException if the framing is malformed
     */
    static AwsChunkedBody decode(byte[] raw, Checksum checksum) throws IOException {
        InputStream in = new ByteArrayInputStream(raw);
        long decoded = 0;
        while (true) {
            String header = line(in);
            int semicolon = header.indexOf(';');
            long size;
            try {
                size = Long.parseLong((semicolon < 0 ? header : header.substring(0, semicolon)).trim(), 16);
            } catch (NumberFormatException e) {
                throw new IOException("malformed aws-chunked chunk header '" + header + "'");
            }
            if (size == 0) {
                break;
            }
            byte[] data = in.readNBytes((int) size);
            if (data.length != size) {
                throw new IOException("aws-chunked body ends inside a chunk");
            }
            checksum.update(data, 0, data.length);
            decoded += size;
            if (!line(in).isEmpty()) {
                throw new IOException("aws-chunked chunk not followed by CRLF");
            }
        }
        Map<String, String> trailers = new TreeMap<>();
        for (String trailer = line(in); !trailer.isEmpty(); trailer = line(in)) {
            int colon = trailer.indexOf(':');
            if (colon > 0) {
                trailers.put(
                        trailer.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        trailer.substring(colon + 1).trim());
            }
        }
        return new AwsChunkedBody(decoded, trailers);
    }

    /** The number of data bytes. */
    long decodedLength() {
        return decodedLength;
    }

    /** A trailing header's value by lower-case name, or {@code null}. */
    String trailer(String name) {
        return trailers.get(name.toLowerCase(Locale.ROOT));
    }

    /** One CRLF-terminated line without the CRLF; the rest of the stream if it has no CRLF. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\r') {
                int next = in.read();
                if (next == '\n' || next < 0) {
                    break;
                }
                line.write(b);
                line.write(next);
            } else {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.US_ASCII);
    }
}
