package dev.flinks3.testserver;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The bucket, key and sub-resources a path-style S3 request addresses ({@code /bucket/key?uploadId=..}),
 * decoded from the raw request URI. Path segments are percent-decoded as UTF-8 without treating
 * {@code +} as a space: in a URI path {@code +} is a literal plus, which matters for keys holding it.
 */
final class RequestTarget {

    private final String bucket;
    private final String key;
    private final Set<String> queryNames;

    private RequestTarget(String bucket, String key, Set<String> queryNames) {
        this.bucket = bucket;
        this.key = key;
        this.queryNames = queryNames;
    }

    /**
     * @param rawPath the request URI's path, still percent-encoded
     * @param rawQuery the query string, or null
     */
    static RequestTarget parse(String rawPath, String rawQuery) {
        String path = rawPath.startsWith("/") ? rawPath.substring(1) : rawPath;
        int slash = path.indexOf('/');
        String bucket = slash < 0 ? path : path.substring(0, slash);
        String key = slash < 0 ? "" : path.substring(slash + 1);
        return new RequestTarget(percentDecode(bucket), percentDecode(key), queryNames(rawQuery));
    }

    String bucket() {
        return bucket;
    }

    String key() {
        return key;
    }

    Set<String> queryNames() {
        return queryNames;
    }

    /** Whether a presigned-URL signature ({@code X-Amz-Signature} for SigV4, {@code Signature} for V2) is present. */
    boolean hasQuerySignature() {
        return queryNames.contains("X-Amz-Signature") || queryNames.contains("Signature");
    }

    private static Set<String> queryNames(String rawQuery) {
        Set<String> names = new LinkedHashSet<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return names;
        }
        for (String pair : rawQuery.split("&")) {
            if (!pair.isEmpty()) {
                int eq = pair.indexOf('=');
                names.add(percentDecode(eq < 0 ? pair : pair.substring(0, eq)));
            }
        }
        return names;
    }

    static String percentDecode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        int i = 0;
        while (i < s.length()) {
            if (s.charAt(i) == '%' && i + 2 < s.length() && isHex(s.charAt(i + 1)) && isHex(s.charAt(i + 2))) {
                bytes.write(Character.digit(s.charAt(i + 1), 16) * 16 + Character.digit(s.charAt(i + 2), 16));
                i += 3;
            } else {
                int codePoint = s.codePointAt(i);
                bytes.writeBytes(new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8));
                i += Character.charCount(codePoint);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static boolean isHex(char c) {
        return Character.digit(c, 16) >= 0;
    }
}
