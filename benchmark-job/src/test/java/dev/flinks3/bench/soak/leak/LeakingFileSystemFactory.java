package dev.flinks3.bench.soak.leak;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemFactory;

/**
 * The plugin's {@code s3://} factory in a test build of the plugin jar ({@code SoakLeakIT} makes it), wrapping the
 * factory it replaced in the jar's service list, whose name the jar holds in {@value #DELEGATE}: every filesystem it
 * creates is a {@link LeakingFileSystem} that injects the {@link InjectedLeak} the JVM's system property names. The
 * soak's short run must fail on it.
 */
public final class LeakingFileSystemFactory implements FileSystemFactory {

    /** The resource naming the factory class this one wraps. */
    static final String DELEGATE = "META-INF/flinks3-test-leak-delegate";

    private final FileSystemFactory delegate;
    private URI endpoint;

    public LeakingFileSystemFactory() {
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(DELEGATE)) {
            if (in == null) {
                throw new IllegalStateException("no " + DELEGATE + " in the test build of the plugin");
            }
            String name = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))
                    .readLine()
                    .trim();
            delegate = (FileSystemFactory) Class.forName(name, true, getClass().getClassLoader())
                    .getDeclaredConstructor()
                    .newInstance();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create the wrapped factory", e);
        }
    }

    @Override
    public void configure(Configuration config) {
        delegate.configure(config);
        endpoint = URI.create(config.getString("s3.endpoint", "http://127.0.0.1:80"));
    }

    @Override
    public String getScheme() {
        return delegate.getScheme();
    }

    @Override
    public int getPriority() {
        return delegate.getPriority();
    }

    @Override
    public FileSystem create(URI fsUri) throws IOException {
        return new LeakingFileSystem(delegate.create(fsUri), InjectedLeak.named(), InjectedLeak.when(), endpoint);
    }
}
