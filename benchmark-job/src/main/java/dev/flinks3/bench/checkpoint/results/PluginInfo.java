package dev.flinks3.bench.checkpoint.results;

/**
 * The filesystem plugin a run used.
 *
 * @param name the contender's name in reports, e.g. {@code ours} or {@code flink-presto}
 * @param jar the plugin jar's file name
 * @param version the jar's Implementation-Version or Maven version, empty if unknown
 * @param fileSystemClass the class Flink resolved for {@code s3://}, empty if not resolved
 */
public record PluginInfo(String name, String jar, String version, String fileSystemClass) {}
