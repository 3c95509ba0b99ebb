package dev.flinks3.fs;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The SSE-KMS encryption context as S3 wants it in {@code x-amz-server-side-encryption-context}: the
 * base64 of a JSON object of string pairs (S3 API reference, PutObject). Users write it as S3A does,
 * {@code key1=value1,key2=value2}, or as the JSON itself, plain or already base64-encoded.
 */
final class KmsEncryptionContext {

    private KmsEncryptionContext() {}

    /**
     * @param written the configured value, not blank
     * @return base64 of the JSON object
     * @throws IllegalArgumentException if the value is neither JSON, base64 of JSON, nor key=value pairs
     */
    static String toHeaderValue(String written) {
        String value = written.trim();
        if (value.startsWith("{")) {
            return base64(value);
        }
        String decoded = decodedJsonOrNull(value);
        if (decoded != null) {
            return value;
        }
        return base64(pairsToJson(value));
    }

    private static String pairsToJson(String pairs) {
        StringBuilder json = new StringBuilder("{");
        for (String pair : pairs.split(",")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? "" : pair.substring(0, eq).trim();
            if (key.isEmpty()) {
                throw new IllegalArgumentException("not a key=value pair: '" + pair.trim() + "'");
            }
            if (json.length() > 1) {
                json.append(',');
            }
            appendJsonString(json, key);
            json.append(':');
            appendJsonString(json, pair.substring(eq + 1).trim());
        }
        return json.append('}').toString();
    }

    private static void appendJsonString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }

    private static String decodedJsonOrNull(String value) {
        try {
            String decoded = new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8).trim();
            return decoded.startsWith("{") && decoded.endsWith("}") ? decoded : null;
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
    }

    private static String base64(String json) {
        return Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
