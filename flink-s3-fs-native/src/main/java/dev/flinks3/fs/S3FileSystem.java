package dev.flinks3.fs;

import dev.flinks3.multipart.UploadEngine;
import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.ListPage;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.ObjectMetadata;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.UploadStreams;
import dev.flinks3.transfer.WriteCondition;
import dev.flinks3.transfer.bulk.ObjectCopies;
import dev.flinks3.transfer.read.ReadAheadBudget;
import dev.flinks3.transfer.read.S3SeekableInputStream;
import dev.flinks3.writer.S3RecoverableWriter;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.flink.core.fs.BlockLocation;
import org.apache.flink.core.fs.EntropyInjectingFileSystem;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystemKind;
import org.apache.flink.core.fs.ICloseableRegistry;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.PathsCopyingFileSystem.CopyRequest;
import org.apache.flink.core.fs.RecoverableWriter;

/**
 * A Flink {@link FileSystem} over one S3 bucket (paths may name other buckets too), for the
 * {@code s3://}, {@code s3a://} and {@code s3p://} schemes.
 *
 * <p><b>Files and directories.</b> An object is a file, zero-byte objects included. A directory is a
 * key prefix that has objects under it, or a directory marker: a zero-byte object whose key ends with
 * {@code /}, as {@link #mkdirs} and other tools (S3A, the console) write. Listings show every object
 * and prefix below a directory except its own marker and the tail objects of in-progress recoverable
 * streams ({@link dev.flinks3.writer.TailObjects}); a prefix that holds nothing but tails is no
 * directory ({@link VisibleObjects}).
 *
 * <p><b>Writes</b> go through the shared {@link UploadEngine} (with {@code s3.client: crt}, streams
 * larger than one part through the Transfer Manager, behind the same {@link UploadStreams} port): parts upload while the caller writes and
 * the object appears only when the stream is closed. {@code NO_OVERWRITE} is a conditional write
 * ({@code If-None-Match: *}) that cannot race; on servers without conditional writes a HEAD checks
 * the key at create and again just before the commit. {@code OVERWRITE} never deletes first, so readers
 * never see the old object missing.
 *
 * <p><b>Reads</b> are lazy: {@link #open} sends nothing; the first read sends a ranged GET and a missing
 * object raises {@link FileNotFoundException} then.
 *
 * <p>The filesystem owns nothing: the object client, the upload engine, the bulk copy and the read-ahead
 * executor belong to the factory that made it and are shared by all its filesystems. Thread-safe.
 *
 * <p><b>Exactly-once sinks</b> get an {@link S3RecoverableWriter} from {@link #createRecoverableWriter()},
 * on the same client and upload engine.
 */
public class S3FileSystem extends FileSystem implements EntropyInjectingFileSystem {

    private static final char[] ENTROPY_ALPHABET =
            "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".toCharArray();

    private final URI uri;
    private final BucketPaths paths;
    private final ObjectClient client;
    private final UploadEngine uploads;
    private final UploadStreams streams;
    private final BulkCopy bulkCopy;
    private final ReadAheadBudget readAhead;
    private final S3FileSystemSettings settings;
    private final VisibleObjects visible;
    private final UnmarkedDirectories unmarked = new UnmarkedDirectories();
    private final ObjectCopies objectCopies;

    /**
     * @param uri the filesystem's URI, {@code scheme://bucket}; a path is {@code scheme://bucket/key}
     * @param client the S3 seam; not owned
     * @param uploads the upload engine on the same client (the recoverable writer's); not owned
     * @param streams opens the streams of {@link #create}: {@code uploads} itself, or the Transfer
     *     Manager's uploads with {@code s3.client: crt}, chosen where the clients are built; not owned
     * @param bulkCopy copies objects to local files for {@link #copyFiles}; {@code null} to let Flink copy
     *     file by file through {@link #open}
     * @param readAhead runs parallel read-ahead GETs of input streams and bounds their memory; not
     *     owned; {@code null} reads over one connection per stream
     * @param settings what the factory was configured with
     */
    public S3FileSystem(
            URI uri,
            ObjectClient client,
            UploadEngine uploads,
            UploadStreams streams,
            BulkCopy bulkCopy,
            ReadAheadBudget readAhead,
            S3FileSystemSettings settings) {
        this.streams = Objects.requireNonNull(streams, "streams");
        this.uri = URI.create(uri.getScheme() + "://" + (uri.getAuthority() == null ? "" : uri.getAuthority()) + "/");
        this.paths = new BucketPaths(this.uri);
        this.client = Objects.requireNonNull(client, "client");
        this.uploads = Objects.requireNonNull(uploads, "uploads");
        this.bulkCopy = bulkCopy;
        this.readAhead = readAhead;
        this.settings = Objects.requireNonNull(settings, "settings");
        this.visible = new VisibleObjects(client);
        this.objectCopies = new ObjectCopies(
                client,
                settings.s3().read().bulkCopyConcurrency(),
                settings.s3().upload().partSizeBytes(),
                settings.s3().read());
    }

    // ---- identity -----------------------------------------------------------------------------

    /** {@code scheme://bucket/}. */
    @Override
    public URI getUri() {
        return uri;
    }

    /** The bucket's root. */
    @Override
    public Path getWorkingDirectory() {
        return new Path(uri);
    }

    /** The bucket's root. */
    @Override
    public Path getHomeDirectory() {
        return new Path(uri);
    }

    @Override
    public boolean isDistributedFS() {
        return true;
    }

    /**
     * {@link FileSystemKind#OBJECT_STORE}. Flink 1.20 declares {@code FileSystem.getKind()} abstract and
     * calls it; Flink 2.x dropped the method, so it carries no {@code @Override}.
     */
    public FileSystemKind getKind() {
        return FileSystemKind.OBJECT_STORE;
    }

    // ---- status and listing --------------------------------------------------------------------

    /**
     * A file if an object is at the key; otherwise a directory if any visible object has the key as
     * prefix (a marker {@code key/} counts, tail objects do not). One HEAD, plus usually one LIST if
     * there is no object. A tail object is neither. With markers off, a directory this filesystem's
     * {@link #mkdirs} made (or a parent of one) is a directory without a request.
     *
     * @throws FileNotFoundException naming the {@code s3://} location if there is neither
     */
    @Override
    public FileStatus getFileStatus(Path path) throws IOException {
        S3Location location = paths.toLocation(path);
        if (location.key().isEmpty()) {
            return S3FileStatus.directory(paths.toPath(location));
        }
        if (unmarked.contains(location)) {
            return S3FileStatus.directory(paths.toPath(location));
        }
        ObjectMetadata object = VisibleObjects.isVisible(location.key()) ? headOrNull(location) : null;
        if (object != null) {
            return fileStatus(location.bucket(), object);
        }
        if (visible.anyUnder(location.bucket(), location.directoryPrefix(), null)) {
            return S3FileStatus.directory(paths.toPath(location));
        }
        throw new FileNotFoundException("No file or directory at " + location);
    }

    /** One block covering the whole file: S3 offers no locality. */
    @Override
    public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len) {
        return new BlockLocation[] {new S3BlockLocation(0, file.getLen())};
    }

    /**
     * The files and sub-directories directly below {@code path}, read page by page (1,000 keys per
     * ListObjectsV2 request), without tail objects. Each sub-directory costs one more LIST (usually)
     * to check that it holds a visible object, so that a listing never shows a directory that {@link
     * #getFileStatus} denies. For a file, its own status. With markers off, the directories this filesystem's
     * {@link #mkdirs} made below {@code path} are listed too, and one it made lists empty.
     *
     * @throws FileNotFoundException naming the location if there is neither a file nor a directory
     */
    @Override
    public FileStatus[] listStatus(Path path) throws IOException {
        S3Location location = paths.toLocation(path);
        String prefix = location.directoryPrefix();
        List<FileStatus> entries = new ArrayList<>();
        boolean markerSeen = false;
        ObjectListing listing = new ObjectListing(client, location.bucket(), prefix, "/");
        for (ListPage page = listing.next(); page != null; page = listing.next()) {
            for (ObjectMetadata object : page.objects()) {
                if (object.key().equals(prefix)) {
                    markerSeen = true;
                } else if (VisibleObjects.isVisible(object.key())) {
                    entries.add(fileStatus(location.bucket(), object));
                }
            }
            for (String subPrefix : page.commonPrefixes()) {
                // "dir//x" lists as prefix "dir//", which names this directory again: not a child
                if (subPrefix.length() > prefix.length() + 1 && visible.anyUnder(location.bucket(), subPrefix, null)) {
                    entries.add(S3FileStatus.directory(paths.toPath(location.bucket(), subPrefix)));
                }
            }
        }
        for (S3Location child : unmarked.children(location)) {
            Path childPath = paths.toPath(child);
            if (entries.stream().noneMatch(e -> e.getPath().equals(childPath))) {
                entries.add(S3FileStatus.directory(childPath));
            }
        }
        if (entries.isEmpty() && !markerSeen && !location.key().isEmpty() && !unmarked.contains(location)) {
            ObjectMetadata file = VisibleObjects.isVisible(location.key()) ? headOrNull(location) : null;
            if (file == null) {
                throw new FileNotFoundException("No file or directory at " + location);
            }
            return new FileStatus[] {fileStatus(location.bucket(), file)};
        }
        return entries.toArray(new FileStatus[0]);
    }

    // ---- namespace changes ----------------------------------------------------------------------

    /**
     * Deletes a file, or a directory: with {@code recursive}, every object under it (tail objects
     * too) in DeleteObjects batches of up to 1,000 keys; without, only an empty directory (its
     * marker; tail objects in it are invisible and stay).
     *
     * <p>Either way, the directories this filesystem's {@link #mkdirs} made at or below the path are forgotten
     * (markers off).
     *
     * @return false if nothing was at the path (a tail object counts as nothing)
     * @throws IOException if the directory is not empty and {@code recursive} is false, if the path is
     *     a bucket's root, or naming the keys S3 could not delete
     */
    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        S3Location location = paths.toLocation(path);
        if (location.key().isEmpty()) {
            throw new IOException("Refusing to delete the root of bucket " + location);
        }
        if (VisibleObjects.isVisible(location.key()) && headOrNull(location) != null) {
            client.delete(location);
            return true;
        }
        String prefix = location.directoryPrefix();
        if (recursive) {
            boolean deleted = new PrefixDelete(client, location).deleteAllUnder(prefix) > 0;
            return unmarked.forget(location) || deleted;
        }
        if (visible.anyUnder(location.bucket(), prefix, prefix)
                || !unmarked.children(location).isEmpty()) {
            throw new IOException("Directory " + location + " is not empty; delete it with recursive = true");
        }
        boolean forgotten = unmarked.forget(location);
        S3Location marker = location.withKey(prefix);
        if (headOrNull(marker) == null) {
            return forgotten;
        }
        client.delete(marker);
        return true;
    }

    /**
     * With {@code s3.directory-markers.enabled: true} (the default), writes a directory marker ({@code key/},
     * zero bytes), so the directory exists and can be listed while it is empty (Flink's {@code
     * AbstractRecoverableWriterTest} lists the directory it made before any file is in it). Parent directories
     * need no marker: they exist through the child's key.
     *
     * <p>With markers off, sends no request and returns true, and a file at the path is not looked for: S3 shows
     * the directory once an object lies under it, and until then this filesystem answers for the directories it
     * made itself ({@link #getFileStatus}, {@link #listStatus} and {@link #delete} see them, other processes do
     * not). ForSt tests at start whether {@code exists} sees a directory {@code mkdirs} made, and when it does
     * not, ForSt 2.3.0 puts a second filesystem object in front of the native side that shares its file-mapping
     * table under another lock; here it does see it, so ForSt keeps one object and still sends no request for
     * its checks of its own directories.
     *
     * <p>One round trip: the marker's PutObject and the HeadObject that looks for a file at the path go out
     * together (Flink creates the checkpoint directories one after another at every job start, and ForSt its
     * database directories at every restore, so on a store 40 ms away each mkdirs in sequence costs 80 ms less).
     * When the HEAD finds a file, the marker is deleted again before the error.
     *
     * @throws FileAlreadyExistsException with markers on, if a file is at the path
     */
    @Override
    public boolean mkdirs(Path path) throws IOException {
        S3Location location = paths.toLocation(path);
        if (location.key().isEmpty()) {
            return true;
        }
        if (!settings.directoryMarkers()) {
            unmarked.add(location);
            return true;
        }
        S3Location marker = location.withKey(location.directoryPrefix());
        CompletableFuture<String> put = client.put(marker, ByteBuffer.allocate(0), WriteCondition.NONE);
        ObjectMetadata file;
        try {
            file = headOrNull(location);
        } catch (IOException | RuntimeException e) {
            put.handle((etag, error) -> null).join();
            throw e;
        }
        Futures.await(put, "PutObject", location);
        if (file != null) {
            client.delete(marker);
            throw new FileAlreadyExistsException(location.toString(), null, "a file exists at the path");
        }
        return true;
    }

    /**
     * Moves a file or a directory by server-side copy and delete. Never overwrites: returns false if
     * the source does not exist, the target exists, or the target lies inside the source. The directories this
     * filesystem's {@link #mkdirs} made at or below the source (markers off) move with it.
     */
    @Override
    public boolean rename(Path source, Path target) throws IOException {
        S3Location from = paths.toLocation(source);
        S3Location to = paths.toLocation(target);
        if (from.key().isEmpty()
                || to.key().isEmpty()
                || (from.bucket().equals(to.bucket())
                        && (from.key().equals(to.key()) || to.key().startsWith(from.directoryPrefix())))
                || exists(target)) {
            return false;
        }
        ServerSideRename rename = new ServerSideRename(client);
        ObjectMetadata file = headOrNull(from);
        if (file != null) {
            rename.renameFile(from, file.length(), to);
            return true;
        }
        boolean moved = rename.renameDirectory(from, to);
        return unmarked.move(from, to) || moved;
    }

    // ---- streams ----------------------------------------------------------------------------------

    /**
     * Opens a stream that writes the object when closed.
     *
     * @throws FileAlreadyExistsException with {@code NO_OVERWRITE} on a server without conditional
     *     writes, if an object is at the key (with conditional writes, {@code close()} throws it)
     */
    @Override
    public FSDataOutputStream create(Path path, WriteMode overwriteMode) throws IOException {
        S3Location location = paths.toLocation(path);
        if (location.key().isEmpty()) {
            throw new IOException("Cannot create a file at the root of bucket " + location);
        }
        unmarked.forget(location);
        WriteCondition condition = WriteCondition.NONE;
        if (overwriteMode == WriteMode.NO_OVERWRITE) {
            condition = WriteCondition.IF_NONE_MATCH;
            if (!settings.s3().upload().conditionalWritesEnabled() && headOrNull(location) != null) {
                throw new FileAlreadyExistsException(location.toString(), null, "an object exists at the key");
            }
        }
        return new S3DataOutputStream(streams.openStream(location, condition));
    }

    /** Same as {@link #open(Path)}: read sizes come from the read-ahead settings, not the buffer size. */
    @Override
    public FSDataInputStream open(Path path, int bufferSize) throws IOException {
        return open(path);
    }

    /** Opens the object lazily: no request until the first read. */
    @Override
    public FSDataInputStream open(Path path) throws IOException {
        S3Location location = paths.toLocation(path);
        if (location.key().isEmpty()) {
            throw new FileNotFoundException(location + " is the root of a bucket, not a file");
        }
        return new S3DataInputStream(
                new S3SeekableInputStream(client, location, settings.s3().read(), -1, readAhead));
    }

    /**
     * Flink's exactly-once writer ({@code FileSink}) on multipart uploads: resumable, committing on
     * {@code commit()}, with the same part size and buffer bounds as {@link #create}. Cheap; owns nothing.
     *
     * @throws IllegalArgumentException if this filesystem's URI names no bucket, or a bucket the plugin refuses (an
     *     S3 Express directory bucket), as every other operation on it does
     */
    @Override
    public RecoverableWriter createRecoverableWriter() throws IOException {
        return new S3RecoverableWriter(client, uploads, S3Location.of(uri));
    }

    // ---- entropy injection ------------------------------------------------------------------------

    /** The marker Flink replaces with entropy in checkpoint data paths, or {@code null}. */
    @Override
    public String getEntropyInjectionKey() {
        return settings.entropyKey();
    }

    /** {@code s3.entropy.length} random letters and digits. */
    @Override
    public String generateEntropy() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        char[] entropy = new char[settings.entropyLength()];
        for (int i = 0; i < entropy.length; i++) {
            entropy[i] = ENTROPY_ALPHABET[random.nextInt(ENTROPY_ALPHABET.length)];
        }
        return new String(entropy);
    }

    // ---- copies of paths: to local disk, and within the store ----------------------------------

    /**
     * Whether {@link #copyFiles} copies from {@code source} to {@code destination}: with {@code s3.bulk-copy.enabled}
     * (the default), for a source of this filesystem's bucket to a local file (a bulk download, RocksDB restore), and
     * to an object of this filesystem's bucket (a server-side copy, ForSt checkpoints and savepoints). Copies to
     * another bucket are not offered, as its configuration may name another store or credentials. Flink 2.x calls it
     * through {@code PathsCopyingFileSystem}, which {@link PathsCopyingS3FileSystem} adds where Flink has it.
     * Sends no request.
     */
    public boolean canCopyPaths(Path source, Path destination) {
        if (!settings.bulkCopyEnabled()) {
            return false;
        }
        String sourceScheme = source.toUri().getScheme();
        if (LocalCopyRequests.isLocal(destination)) {
            return bulkCopy != null && (sourceScheme == null || sourceScheme.equals(uri.getScheme()));
        }
        return StoreCopyRequests.inBucket(source, uri) && StoreCopyRequests.inBucket(destination, uri);
    }

    /**
     * Copies the sources to their destinations, which {@link #canCopyPaths} accepted: objects to local files with
     * parallel ranged GETs ({@code s3.bulk-copy.max-concurrent} files at a time), objects to objects of this bucket
     * with server-side copies (as many at a time). Closing {@code closeableRegistry} cancels the copy.
     *
     * @throws IOException the first failed copy, naming its location; incomplete local files are deleted, and no
     *     incomplete object or multipart upload is left (objects already copied stay)
     */
    public void copyFiles(List<CopyRequest> requests, ICloseableRegistry closeableRegistry) throws IOException {
        List<CopyRequest> toLocal = new ArrayList<>();
        List<CopyRequest> inStore = new ArrayList<>();
        for (CopyRequest request : requests) {
            (LocalCopyRequests.isLocal(request.getDestination()) ? toLocal : inStore).add(request);
        }
        if (!inStore.isEmpty()) {
            new StoreCopyRequests(objectCopies, paths).copy(inStore, closeableRegistry);
        }
        if (!toLocal.isEmpty()) {
            if (bulkCopy == null) {
                throw new IOException("Bulk copy to local files is not available on " + uri);
            }
            new LocalCopyRequests(bulkCopy, paths).copy(toLocal, closeableRegistry);
        }
    }

    // ---- helpers ------------------------------------------------------------------------------------

    private FileStatus fileStatus(String bucket, ObjectMetadata object) {
        return S3FileStatus.file(paths.toPath(bucket, object.key()), object.length(), object.lastModifiedMillis());
    }

    private ObjectMetadata headOrNull(S3Location location) throws IOException {
        try {
            return client.head(location);
        } catch (FileNotFoundException absent) {
            return null;
        }
    }

    @Override
    public String toString() {
        return "S3FileSystem{" + uri + "}";
    }
}
