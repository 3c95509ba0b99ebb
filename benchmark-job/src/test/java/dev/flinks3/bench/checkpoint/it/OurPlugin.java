package dev.flinks3.bench.checkpoint.it;

import dev.flinks3.testserver.EmbeddedS3Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.plugin.DefaultPluginManager;
import org.apache.flink.core.plugin.DirectoryBasedPluginFinder;
import org.apache.flink.core.plugin.PluginManager;

/** This repository's shaded plugin jar in a plugins folder of its own, configured for an embedded server. */
final class OurPlugin {

    private OurPlugin() {}

    /** The Flink configuration that points {@code s3://} at {@code server}. */
    static Configuration s3Configuration(EmbeddedS3Server server) {
        Map<String, String> s3 = new HashMap<>();
        s3.put("s3.endpoint", server.endpoint().toString());
        s3.put("s3.path.style.access", "true");
        s3.put("s3.access-key", server.accessKey());
        s3.put("s3.secret-key", server.secretKey());
        s3.put("s3.region", server.region());
        return Configuration.fromMap(s3);
    }

    /** A plugin manager with only our shaded plugin jar, copied into {@code work/plugins/s3-fs-ours}. */
    static PluginManager inPluginsFolder(Path work, Configuration conf) throws IOException {
        Path root = work.resolve("plugins");
        Path folder = Files.createDirectories(root.resolve("s3-fs-ours"));
        Path jar = LocalModeProcess.ourPluginJar();
        Files.copy(jar, folder.resolve(jar.getFileName()));
        return new DefaultPluginManager(
                new DirectoryBasedPluginFinder(root).findPlugins(),
                CoreOptions.getPluginParentFirstLoaderPatterns(conf));
    }
}
