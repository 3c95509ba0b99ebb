package dev.flinks3.multipart;

import dev.flinks3.transfer.CompletedPart;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The ETags S3 gives objects written without SSE-KMS or SSE-C: the quoted hex MD5 of a PutObject body,
 * and for a multipart upload the MD5 of the concatenated binary MD5s of its parts followed by
 * {@code -N}, N the number of parts. Knowing the ETag to expect lets a writer recognise its own object
 * after a lost response. Servers that use other ETags simply never match, which errs on the safe side.
 */
public final class ETags {

    private static final Pattern MD5_HEX = Pattern.compile("[0-9a-fA-F]{32}");

    private ETags() {}

    /** The ETag of a PutObject of the bytes from {@code body}'s position to its limit (body untouched). */
    public static String ofBody(ByteBuffer body) {
        MessageDigest md5 = md5();
        md5.update(body.duplicate());
        return "\"" + hex(md5.digest()) + "\"";
    }

    /**
     * The ETag of an upload completed with {@code parts}, or {@code null} if a part's ETag is not an
     * MD5 (then the final ETag cannot be predicted).
     */
    public static String ofParts(List<CompletedPart> parts) {
        MessageDigest md5 = md5();
        for (CompletedPart part : parts) {
            String hex = unquote(part.eTag());
            if (!MD5_HEX.matcher(hex).matches()) {
                return null;
            }
            md5.update(unhex(hex));
        }
        return "\"" + hex(md5.digest()) + "-" + parts.size() + "\"";
    }

    /** True if both are the same ETag, ignoring quotes and hex case. */
    public static boolean same(String a, String b) {
        return a != null && b != null && unquote(a).equalsIgnoreCase(unquote(b));
    }

    private static String unquote(String eTag) {
        String s = eTag.trim();
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM provides MD5", e);
        }
    }

    private static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            sb.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return sb.toString();
    }

    private static byte[] unhex(String hex) {
        byte[] bytes = new byte[hex.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return bytes;
    }
}
