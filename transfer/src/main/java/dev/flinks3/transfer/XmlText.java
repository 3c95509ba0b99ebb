package dev.flinks3.transfer;

import java.util.Locale;

/**
 * Which keys an XML 1.0 document can carry as text: the request bodies of DeleteObjects, the answers of listings
 * not URL-encoded and the answers of CreateMultipartUpload and CompleteMultipartUpload hold keys as XML text, and
 * S3 keys may hold characters XML 1.0 does not allow
 * (control characters other than tab and line feed, U+FFFE, U+FFFF, unpaired surrogates; W3C XML 1.0,
 * section 2.2 "Characters"). A carriage return is allowed by XML but read back as a line feed, so it counts as
 * not carried (S3 user guide, "Object key naming guidelines": XML related object key constraints).
 */
public final class XmlText {

    private XmlText() {}

    /** True if every character of {@code text} arrives unchanged as XML 1.0 text. */
    public static boolean canCarry(String text) {
        return firstNotCarried(text) < 0;
    }

    /** The index of the first character of {@code text} that XML 1.0 text cannot carry unchanged, or -1. */
    public static int firstNotCarried(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    return i;
                }
                i++;
            } else if (!carried(c)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * {@code text} with every character XML 1.0 cannot carry (and every line break) written as a backslash, {@code
     * u} and four hexadecimal digits, for a message or a log line (a control character there would garble it).
     */
    public static String printable(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean pair = Character.isHighSurrogate(c)
                    && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1));
            if (pair) {
                out.append(c).append(text.charAt(++i));
            } else if (c != '\n' && carried(c)) {
                out.append(c);
            } else {
                out.append(String.format(Locale.ROOT, "\\u%04X", (int) c));
            }
        }
        return out.toString();
    }

    /** True if XML 1.0 text carries {@code c} (not a surrogate) unchanged. */
    private static boolean carried(char c) {
        return c == '\t' || c == '\n' || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD);
    }
}
