package dev.flinks3.bench.fsbench.workloads;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.flink.core.fs.CloseableRegistry;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.PathsCopyingFileSystem;
import org.apache.flink.core.fs.PathsCopyingFileSystem.CopyRequest;

/**
 * A RocksDB-restore-like download of {@link WorkloadSizes#restoreFiles()} files to local disk. Where
 * the plugin says it can copy the paths ({@link org.apache.flink.core.fs.FileSystem#canCopyPaths}),
 * one {@link PathsCopyingFileSystem#copyFiles} call, as Flink's RocksDB state downloader makes;
 * otherwise {@link WorkloadSizes#restoreThreads()} threads of {@code open} and read into local files,
 * each thread taking the next file when done. The local files are checked afterwards.
 */
final class RestoreDownload implements WorkloadTask {

    private static final long SEED_BASE = 10_000;
    private static final int SET_UP_THREADS = 8;

    private final WorkloadContext context;
    private final PatternFiles files;
    private final java.nio.file.Path target;
    private String method = "not run";

    RestoreDownload(WorkloadContext context) {
        this.context = context;
        this.files = new PatternFiles(context.fs(), context.data());
        this.target = context.localDir().resolve("restore");
    }

    @Override
    public String method() {
        return method;
    }

    @Override
    public void prepare() throws Exception {
        List<Callable<Void>> writers = new ArrayList<>();
        for (int i = 0; i < context.sizes().restoreFiles(); i++) {
            int file = i;
            writers.add(() -> {
                files.ensure(
                        source(file),
                        SEED_BASE + file,
                        context.sizes().restoreFileBytes(),
                        context.sizes().writeBytes());
                return null;
            });
        }
        Parallel.run(SET_UP_THREADS, "restore-set-up", writers);
        deleteTarget();
    }

    @Override
    public Outcome run() throws Exception {
        WorkloadSizes sizes = context.sizes();
        // Here, not in prepare(): verify() deletes the folder, and an untimed run may come before the timed one.
        Files.createDirectories(target);
        if (context.fs().canCopyPaths(source(0), destination(0))) {
            method = "PathsCopyingFileSystem.copyFiles";
            List<CopyRequest> requests = new ArrayList<>();
            for (int i = 0; i < sizes.restoreFiles(); i++) {
                requests.add(CopyRequest.of(source(i), destination(i), sizes.restoreFileBytes()));
            }
            try (CloseableRegistry registry = new CloseableRegistry()) {
                ((PathsCopyingFileSystem) context.fs()).copyFiles(requests, registry);
            }
        } else {
            method = sizes.restoreThreads() + " threads of open + read";
            List<Callable<Void>> downloads = new ArrayList<>();
            for (int i = 0; i < sizes.restoreFiles(); i++) {
                int file = i;
                downloads.add(() -> {
                    download(file);
                    return null;
                });
            }
            Parallel.run(sizes.restoreThreads(), "restore-download", downloads);
        }
        return new Outcome(sizes.restoreFiles() * sizes.restoreFileBytes(), sizes.restoreFiles());
    }

    @Override
    public String verify() throws Exception {
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < context.sizes().restoreFiles(); i++) {
            java.nio.file.Path local = localFile(i);
            if (!Files.exists(local)) {
                problems.add(local + " was not downloaded");
                continue;
            }
            try (InputStream in = Files.newInputStream(local)) {
                problems.add(PatternFiles.copyChecked(
                        in,
                        new ContentCheck(context.data(), SEED_BASE + i, local.toString(), 0),
                        context.sizes().restoreFileBytes()));
            }
        }
        deleteTarget();
        return Parallel.firstProblem(problems);
    }

    private void download(int file) throws IOException {
        byte[] buffer = new byte[PatternFiles.READ_BUFFER_BYTES];
        try (FSDataInputStream in = context.fs().open(source(file));
                OutputStream out = Files.newOutputStream(localFile(file))) {
            int read;
            while ((read = in.read(buffer, 0, buffer.length)) >= 0) {
                out.write(buffer, 0, read);
            }
        }
    }

    private Path source(int file) {
        return new Path(context.root(), String.format("restore/r-%03d", file));
    }

    private java.nio.file.Path localFile(int file) {
        return target.resolve(String.format("r-%03d", file));
    }

    private Path destination(int file) {
        return new Path(localFile(file).toUri());
    }

    private void deleteTarget() throws IOException {
        if (!Files.exists(target)) {
            return;
        }
        try (Stream<java.nio.file.Path> walk = Files.walk(target)) {
            for (java.nio.file.Path path :
                    walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
