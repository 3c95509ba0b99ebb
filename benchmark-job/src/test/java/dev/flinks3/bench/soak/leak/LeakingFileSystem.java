package dev.flinks3.bench.soak.leak;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.flink.core.fs.BlockLocation;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableWriter;

/**
 * The plugin's filesystem with one injected leak ({@link InjectedLeak}): one at each checkpoint, when the
 * JobManager makes the checkpoint's folder ({@code mkdirs} of {@code chk-<n>}, once per checkpoint; its {@code
 * _metadata} goes through the recoverable writer), or one at each restore, at the first read of a checkpoint file
 * after 5 s without one (a restore reads a few, all within a second or two). Everything else is the plugin's,
 * except that it offers no server-side copy of paths ({@code PathsCopyingFileSystem}): a restore of full RocksDB
 * checkpoints reads its streams anyway.
 */
final class LeakingFileSystem extends FileSystem {

    private static final long RESTORE_BURST_MS = 5_000;
    private static final Pattern CHECKPOINT_FOLDER = Pattern.compile("chk-\\d+");

    private final FileSystem delegate;
    private final InjectedLeak leak;
    private final InjectedLeak.When when;
    private final URI endpoint;
    private long lastRestoreLeak;

    LeakingFileSystem(FileSystem delegate, InjectedLeak leak, InjectedLeak.When when, URI endpoint) {
        this.delegate = delegate;
        this.leak = leak;
        this.when = when;
        this.endpoint = endpoint;
    }

    @Override
    public FSDataOutputStream create(Path path, WriteMode overwrite) throws IOException {
        return delegate.create(path, overwrite);
    }

    @Override
    public FSDataInputStream open(Path path, int bufferSize) throws IOException {
        restoreRead(path);
        return delegate.open(path, bufferSize);
    }

    @Override
    public FSDataInputStream open(Path path) throws IOException {
        restoreRead(path);
        return delegate.open(path);
    }

    private void restoreRead(Path path) {
        if (when != InjectedLeak.When.STOP || !path.getPath().contains("/chk-")) {
            return;
        }
        synchronized (this) {
            long now = System.currentTimeMillis();
            if (now - lastRestoreLeak > RESTORE_BURST_MS) {
                leak.leakOne(endpoint);
            }
            lastRestoreLeak = now;
        }
    }

    @Override
    public Path getWorkingDirectory() {
        return delegate.getWorkingDirectory();
    }

    @Override
    public Path getHomeDirectory() {
        return delegate.getHomeDirectory();
    }

    @Override
    public URI getUri() {
        return delegate.getUri();
    }

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
        return delegate.getFileStatus(f);
    }

    @Override
    public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len) throws IOException {
        return delegate.getFileBlockLocations(file, start, len);
    }

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
        return delegate.listStatus(f);
    }

    @Override
    public boolean exists(Path f) throws IOException {
        return delegate.exists(f);
    }

    @Override
    public boolean delete(Path f, boolean recursive) throws IOException {
        return delegate.delete(f, recursive);
    }

    @Override
    public boolean mkdirs(Path f) throws IOException {
        if (when == InjectedLeak.When.CHECKPOINT
                && CHECKPOINT_FOLDER.matcher(f.getName()).matches()) {
            leak.leakOne(endpoint);
        }
        return delegate.mkdirs(f);
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        return delegate.rename(src, dst);
    }

    @Override
    public boolean isDistributedFS() {
        return delegate.isDistributedFS();
    }

    @Override
    public RecoverableWriter createRecoverableWriter() throws IOException {
        return delegate.createRecoverableWriter();
    }

    @Override
    public RecoverableWriter createRecoverableWriter(Map<String, String> conf) throws IOException {
        return delegate.createRecoverableWriter(conf);
    }
}
