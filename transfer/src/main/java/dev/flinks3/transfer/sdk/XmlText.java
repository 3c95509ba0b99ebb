package dev.flinks3.transfer.sdk;

/**
 * Which keys an XML 1.0 document can carry as text: the request bodies of DeleteObjects (and the answers of
 * listings not URL-encoded) hold keys as XML text, and S3 keys may hold characters XML 1.0 does not allow
 * (control characters other than tab and line feed, U+FFFE, U+FFFF, unpaired surrogates; W3C XML 1.0,
 * section 2.2 "Characters"). A carriage return is allowed by XML but read back as a line feed, so it counts as
 * not carried (S3 user guide, "Object key naming guidelines": XML related object key constraints).
 */
final class XmlText {

    private XmlText() {}

    /** True if every character of {@code text} arrives unchanged as XML 1.0 text. */
    static boolean canCarry(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (!(c == '\t' || c == '\n' || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD))) {
                return false;
            }
        }
        return true;
    }
}
