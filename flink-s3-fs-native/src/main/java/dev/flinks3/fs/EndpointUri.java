package dev.flinks3.fs;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Parses a configured S3 endpoint. S3A and Presto accept a bare host ({@code minio:9000},
 * {@code s3.eu-west-1.amazonaws.com}) and add the scheme from their SSL switch; the native plugin
 * expects a URL. Both forms are accepted here.
 */
final class EndpointUri {

    private EndpointUri() {}

    /**
     * @param written the configured endpoint, not blank
     * @param ssl scheme for an endpoint without one: https if true, http if false
     * @return an absolute http(s) URI with a host and no query or fragment
     * @throws IllegalArgumentException if the value is not such a URL
     */
    static URI parse(String written, boolean ssl) {
        String value = written.trim();
        String withScheme = value.contains("://") ? value : (ssl ? "https://" : "http://") + value;
        URI uri;
        try {
            uri = new URI(withScheme);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        String scheme = uri.getScheme();
        if (!("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))
                || uri.getHost() == null
                || uri.getRawQuery() != null
                || uri.getRawFragment() != null
                || uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("not an http(s) URL with a host");
        }
        return uri;
    }
}
