package dev.flinks3.bench.common;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Flink configuration given to one contender only, from repeated {@code --conf NAME:KEY=VALUE} options: how
 * one plugin runs twice under two names with different settings (e.g. {@code ours-crt:s3.client=crt} beside
 * {@code ours}), or how one rival gets a key of its own spelling.
 */
public final class ContenderConfiguration {

    private ContenderConfiguration() {}

    /**
     * Parses the entries.
     *
     * @param entries values of {@code --conf}, each {@code NAME:KEY=VALUE}
     * @return the entries by contender name, then key, in the order given
     * @throws IllegalArgumentException naming an entry of another shape
     */
    public static Map<String, Map<String, String>> parse(List<String> entries) {
        Map<String, Map<String, String>> byContender = new LinkedHashMap<>();
        for (String entry : entries) {
            int colon = entry.indexOf(':');
            int equals = entry.indexOf('=', colon + 1);
            if (colon < 1 || equals < colon + 2) {
                throw new IllegalArgumentException("--conf '" + entry
                        + "' must look like NAME:KEY=VALUE, e.g. ours:s3.upload.max-buffered-size=256mb");
            }
            byContender
                    .computeIfAbsent(entry.substring(0, colon), name -> new LinkedHashMap<>())
                    .put(entry.substring(colon + 1, equals), entry.substring(equals + 1));
        }
        return byContender;
    }
}
