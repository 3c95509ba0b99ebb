package dev.flinks3.fs.token;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The delegation token keys of Flink's own S3 plugins, read where this plugin's are not set, so a job that
 * moves to this plugin keeps getting S3 tokens without a configuration change. Flink's {@code
 * flink-s3-fs-hadoop}, {@code flink-s3-fs-presto} and {@code flink-s3-fs-native} use the service names {@code
 * s3-hadoop}, {@code s3-presto} and {@code s3-native} under {@code security.delegation.token.provider.}, with
 * the keys {@code access-key}, {@code secret-key} and {@code region}, and obtain tokens exactly when all three
 * are set (and {@code enabled} is not {@code false}). This plugin's own keys, under {@code
 * security.delegation.token.provider.s3.}, take precedence; the first process to adopt another plugin's keys
 * logs once which keys it read and which to use instead.
 */
final class ForeignTokenKeys {

    static final String PROVIDER_PREFIX = "security.delegation.token.provider.";

    private static final Logger LOG = LoggerFactory.getLogger(ForeignTokenKeys.class);
    private static final List<String> SERVICES = List.of("s3-hadoop", "s3-presto", "s3-native");
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private ForeignTokenKeys() {}

    /**
     * The prefix of another plugin's token keys to read when this plugin's switch {@code <own>enabled} is not
     * set, or {@code null} to read this plugin's own.
     *
     * @param ownPrefix this plugin's prefix, {@code security.delegation.token.provider.s3.}
     */
    static String adopted(Map<String, String> values, String ownPrefix) {
        if (values.containsKey(ownPrefix + "enabled")) {
            return null;
        }
        for (String service : SERVICES) {
            String prefix = PROVIDER_PREFIX + service + ".";
            boolean set = isSet(values, prefix + "access-key")
                    && isSet(values, prefix + "secret-key")
                    && isSet(values, prefix + "region");
            if (set
                    && !"false"
                            .equalsIgnoreCase(
                                    values.getOrDefault(prefix + "enabled", "").trim())) {
                warnOnce(prefix + "{access-key,secret-key,region} are read for this plugin's S3 delegation tokens, as"
                        + " the plugin of service '" + service + "' would have obtained tokens with them. Set "
                        + ownPrefix + "enabled: true with " + ownPrefix + "access-key, " + ownPrefix + "secret-key and "
                        + ownPrefix + "region instead.");
                return prefix;
            }
            if (isSet(values, prefix + "access-key") || isSet(values, prefix + "region")) {
                warnOnce(prefix + "* is set but incomplete (that plugin obtains tokens only with access-key, secret-key"
                        + " and region), so no S3 delegation tokens are obtained from it. This plugin reads "
                        + ownPrefix + "enabled: true, with " + ownPrefix + "access-key, " + ownPrefix
                        + "secret-key and "
                        + ownPrefix + "region, or its own S3 credentials.");
            }
        }
        return null;
    }

    private static boolean isSet(Map<String, String> values, String key) {
        String value = values.get(key);
        return value != null && !value.trim().isEmpty();
    }

    private static void warnOnce(String message) {
        if (WARNED.compareAndSet(false, true)) {
            LOG.warn("{}", message);
        }
    }
}
