package dev.flinks3.transfer;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Host patterns reached without the proxy, in the one syntax both HTTP clients can follow: a host
 * name or IP address, {@code *.domain} (every host under the domain) or {@code *} (every host).
 * The Netty client matches regular expressions, which this class makes of the patterns; the SDK
 * turns them into the curl-style {@code NO_PROXY} entries of the CRT client itself.
 */
public final class NonProxyHosts {

    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9_:\\[\\]-]+(\\.[A-Za-z0-9_:\\[\\]-]+)*");

    private NonProxyHosts() {}

    /**
     * @throws IllegalArgumentException unless {@code pattern} is a host, {@code *.domain} or {@code *}
     */
    static String check(String pattern) {
        String host = pattern.startsWith("*.") ? pattern.substring(2) : pattern;
        if (!pattern.equals("*") && !HOST.matcher(host).matches()) {
            throw new IllegalArgumentException(
                    "non-proxy host '" + pattern + "' is not a host name, an IP address, '*.domain' or '*'");
        }
        return pattern;
    }

    /**
     * Regular expressions for the Netty client, which matches each against the request's host; a
     * {@code *} anywhere in a pattern (as in the system property {@code http.nonProxyHosts}) matches
     * any characters.
     */
    public static Set<String> asRegularExpressions(Collection<String> patterns) {
        Set<String> regexes = new LinkedHashSet<>();
        for (String pattern : patterns) {
            String[] literals = pattern.split("\\*", -1);
            StringBuilder regex = new StringBuilder();
            for (int i = 0; i < literals.length; i++) {
                regex.append(i > 0 ? ".*" : "").append(literals[i].isEmpty() ? "" : Pattern.quote(literals[i]));
            }
            regexes.add(regex.toString());
        }
        return regexes;
    }
}
