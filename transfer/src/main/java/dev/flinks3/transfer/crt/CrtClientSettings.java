package dev.flinks3.transfer.crt;

import dev.flinks3.transfer.ClientSettings;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.aws.ClientRules;
import dev.flinks3.transfer.aws.HttpProxies;
import dev.flinks3.transfer.options.S3Options;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.regions.Region;

/**
 * What a CRT-based S3 client fixes when it is built, by the key each comes from: the settings of {@code
 * S3AsyncClient.crtBuilder()} that no request can change (endpoint, region and whether other regions are
 * followed, path style, response checksum validation, {@code maxConcurrency} and the target throughput
 * derived from it, {@code minimumPartSizeInBytes}, {@code maxNativeMemoryLimitInBytes}, retries, connect
 * timeout, throughput monitor, proxy). Credentials are not among them: the client signs each request with
 * the credentials the request carries. Immutable; equal when a client built with the one serves the other.
 */
final class CrtClientSettings {

    private final Map<String, Object> values;

    private CrtClientSettings(Map<String, Object> values) {
        this.values = Collections.unmodifiableMap(values);
    }

    /** The client-level settings {@link CrtS3Client#build} would give a client for this configuration. */
    static CrtClientSettings of(S3Settings settings, Region region, HttpProxies proxies) {
        return of(
                settings,
                region.id() + (ClientRules.crossRegionAccess(settings.client()) ? " (any region, followed)" : ""),
                proxies);
    }

    /** As configured: the region as set ({@code null} for the SDK's region chain), not as resolved. */
    static CrtClientSettings configured(S3Settings settings) {
        return of(settings, String.valueOf(settings.client().region()), HttpProxies.of(settings.client()));
    }

    private static CrtClientSettings of(S3Settings settings, String region, HttpProxies proxies) {
        ClientSettings client = settings.client();
        Map<String, Object> values = new LinkedHashMap<>();
        values.put(S3Options.ENDPOINT.key(), client.endpoint() == null ? "(the region's)" : client.endpoint());
        values.put(S3Options.REGION.key(), region);
        values.put(S3Options.PATH_STYLE_ACCESS.key(), client.pathStyleAccess());
        values.put(S3Options.CHECKSUM_VALIDATION_ENABLED.key(), client.checksumsEnabled());
        values.put(S3Options.MAX_CONNECTIONS.key(), client.maxConnections());
        values.put(S3Options.PART_SIZE.key(), settings.upload().partSizeBytes());
        values.put(
                S3Options.MAX_BUFFERED_SIZE.key() + " (native memory limit)", CrtS3Client.nativeMemoryLimit(settings));
        values.put(S3Options.MAX_RETRIES.key(), client.maxRetries());
        values.put(S3Options.CONNECTION_TIMEOUT.key(), client.connectionTimeout());
        values.put(S3Options.SOCKET_TIMEOUT.key(), client.socketTimeout());
        values.put(
                "s3.proxy.*",
                CrtS3Client.proxyOf(settings, proxies).<Object>map(p -> p).orElse("none"));
        return new CrtClientSettings(values);
    }

    /** The native memory limit in bytes. */
    long nativeMemoryLimitBytes() {
        return (Long) values.get(S3Options.MAX_BUFFERED_SIZE.key() + " (native memory limit)");
    }

    /** The connection cap. */
    int maxConnections() {
        return (Integer) values.get(S3Options.MAX_CONNECTIONS.key());
    }

    /**
     * The keys whose values differ, each as {@code key (this value, not other value)}; passwords show as
     * {@code ******}.
     */
    List<String> differences(CrtClientSettings other) {
        List<String> differences = new ArrayList<>();
        values.forEach((key, value) -> {
            Object theirs = other.values.get(key);
            if (!Objects.equals(value, theirs)) {
                differences.add(key + " (" + value + ", not " + theirs + ")");
            }
        });
        return differences;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CrtClientSettings && values.equals(((CrtClientSettings) o).values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
