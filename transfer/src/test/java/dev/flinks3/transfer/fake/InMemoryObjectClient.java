package dev.flinks3.transfer.fake;

import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.GetAnswer;
import dev.flinks3.transfer.GetRequest;
import dev.flinks3.transfer.ListPage;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.ObjectMetadata;
import dev.flinks3.transfer.PartialBodyException;
import dev.flinks3.transfer.PendingUpload;
import dev.flinks3.transfer.RangeStream;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.UploadChecksum;
import dev.flinks3.transfer.WriteCondition;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Predicate;

/**
 * An S3 bucket store in memory behind the {@link ObjectClient} seam, for unit tests of the engines.
 *
 * <p>Semantics follow the S3 API reference: ETags are the quoted MD5 of a PutObject body and
 * {@code "md5(part md5s)-N"} for a completed multipart upload; listings are in UTF-8 byte order with
 * common prefixes and opaque continuation tokens; CompleteMultipartUpload checks part order
 * (InvalidPartOrder), ETags (InvalidPart) and the 5 MiB minimum of every part but the last
 * (EntityTooSmall), and an unknown, aborted or already completed upload id is NoSuchUpload (404);
 * {@link WriteCondition#IF_NONE_MATCH} on an existing key fails with {@link FileAlreadyExistsException}.
 * Every bucket exists. Object bytes are never mutated, so an open GET keeps reading the version it
 * started on, as S3 does.
 *
 * <p>Test hooks: per-operation call counters and in-flight gauges ({@link #calls}, {@link #maxInFlight}),
 * injected {@link Fault}s (before or after the server-side effect), {@link Gate}s that hold the calls
 * of an operation, and an optional executor on which asynchronous calls run and complete (without one
 * they complete before returning). Request bodies are read when the call runs, so a caller that
 * reuses a buffer before the future completes is caught by its test. Thread-safe.
 */
public final class InMemoryObjectClient implements ObjectClient {

    /** S3's minimum size of every part but the last: 5 MiB. */
    public static final long MIN_PART_SIZE = 5L * 1024 * 1024;

    /** S3 sorts keys by their UTF-8 bytes, which is Unicode code point order. */
    static final Comparator<String> UTF8_ORDER = InMemoryObjectClient::compareCodePoints;

    private static final int MAX_LIST_KEYS = 1000;
    private static final int MAX_DELETE_KEYS = 1000;

    private final Object lock = new Object();
    private final Executor executor;
    private final Map<String, TreeMap<String, StoredObject>> buckets = new HashMap<>();
    private final Map<String, Upload> uploads = new HashMap<>();
    private final Map<String, TreeMap<Integer, UploadChecksum>> partChecksums = new HashMap<>();
    private final Set<String> finishedUploadIds = new HashSet<>();
    private final Map<Operation, Integer> callCounts = new EnumMap<>(Operation.class);
    private final Map<Operation, Integer> inFlight = new EnumMap<>(Operation.class);
    private final Map<Operation, Integer> maxInFlight = new EnumMap<>(Operation.class);
    private final Map<Operation, Gate> gates = new EnumMap<>(Operation.class);
    private final List<Fault> faults = new CopyOnWriteArrayList<>();
    private Predicate<S3Location> deleteDenied = location -> false;
    private volatile boolean currentS3 = true;
    private int openRangeStreams;
    private int rangeStreamReads;
    private int abortedRangeStreams;
    private final List<long[]> getRanges = new ArrayList<>();

    /** A fake whose asynchronous calls complete on the calling thread before they return. */
    public InMemoryObjectClient() {
        this(null);
    }

    /**
     * A fake whose asynchronous calls run and complete on {@code executor}, like an SDK client's
     * completion threads; {@code null} for the calling thread. The executor stays owned by the caller.
     */
    public InMemoryObjectClient(Executor executor) {
        this.executor = executor;
    }

    // ---------------------------------------------------------------- test hooks

    /**
     * Makes the fake an older S3-compatible server (as Ceph RGW 16.2): it does not show that it checks
     * flexible checksums, and it ignores {@code If-None-Match} on CompleteMultipartUpload (overwrites).
     * By default the fake is current S3, which does both.
     */
    public void actAsServerIgnoringConditionalCompletion() {
        currentS3 = false;
    }

    /** Adds a fault; faults are checked in the order added and the first that strikes wins. */
    public void inject(Fault fault) {
        faults.add(fault);
    }

    /** Removes all faults. */
    public void clearFaults() {
        faults.clear();
    }

    /** The gate of {@code operation} (open until closed by the test); held calls run when it opens. */
    public Gate gate(Operation operation) {
        synchronized (lock) {
            return gates.computeIfAbsent(operation, op -> new Gate(executor != null ? executor : Runnable::run));
        }
    }

    /** DeleteObjects reports keys matching {@code denied} as AccessDenied and keeps them. */
    public void denyDelete(Predicate<S3Location> denied) {
        synchronized (lock) {
            this.deleteDenied = denied;
        }
    }

    /** Calls of {@code operation} since creation or the last {@link #resetCounters()}. */
    public int calls(Operation operation) {
        synchronized (lock) {
            return callCounts.getOrDefault(operation, 0);
        }
    }

    /** Calls of {@code operation} started and not yet completed (held ones included). */
    public int inFlight(Operation operation) {
        synchronized (lock) {
            return inFlight.getOrDefault(operation, 0);
        }
    }

    /** The most calls of {@code operation} that were in flight at once. */
    public int maxInFlight(Operation operation) {
        synchronized (lock) {
            return maxInFlight.getOrDefault(operation, 0);
        }
    }

    /** Zeroes call counters and in-flight maxima (not the current in-flight gauges). */
    public void resetCounters() {
        synchronized (lock) {
            callCounts.clear();
            maxInFlight.clear();
        }
    }

    /** Ranged GET bodies neither closed nor aborted yet. */
    public int openRangeStreams() {
        synchronized (lock) {
            return openRangeStreams;
        }
    }

    /** The ranges GETs asked for, in order, as {@code [start, endExclusive)} pairs. */
    public List<long[]> getRanges() {
        synchronized (lock) {
            return List.copyOf(getRanges);
        }
    }

    /** Reads of ranged GET bodies into arrays so far: what a reader of a socket pays a system call for each. */
    public int rangeStreamReads() {
        synchronized (lock) {
            return rangeStreamReads;
        }
    }

    /** Ranged GET bodies that were aborted before being closed. */
    public int abortedRangeStreams() {
        synchronized (lock) {
            return abortedRangeStreams;
        }
    }

    /** Stores an object directly (no call counted, no fault applied). */
    public void store(S3Location location, byte[] bytes) {
        synchronized (lock) {
            putObject(location, bytes.clone(), quotedMd5(bytes));
        }
    }

    /** The object's bytes, or {@code null} if there is no object at the location. */
    public byte[] bytesOf(S3Location location) {
        synchronized (lock) {
            StoredObject object = find(location);
            return object == null ? null : object.data.clone();
        }
    }

    /** True if an object exists at the location. */
    public boolean exists(S3Location location) {
        synchronized (lock) {
            return find(location) != null;
        }
    }

    /** All keys of a bucket in listing order. */
    public List<String> keys(String bucket) {
        synchronized (lock) {
            return new ArrayList<>(bucket(bucket).keySet());
        }
    }

    /** Multipart uploads neither completed nor aborted, in all buckets. */
    public List<PendingUpload> pendingUploads() {
        synchronized (lock) {
            List<PendingUpload> result = new ArrayList<>();
            for (Upload upload : uploads.values()) {
                result.add(upload.asPending());
            }
            return result;
        }
    }

    // ---------------------------------------------------------------- ObjectClient

    @Override
    public ObjectMetadata head(S3Location location) throws IOException {
        return blocking(Operation.HEAD, location, () -> {
            StoredObject object = find(location);
            if (object == null) {
                throw noSuchKey(location);
            }
            return object.metadata(location.key());
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>A stream is opened on the calling thread. A buffer or a file is filled on the client's executor (or the
     * calling thread), held while the GET {@linkplain #gate gate} is closed; a held call is counted when it runs,
     * and one whose future was cancelled meanwhile sends nothing. An {@code If-Match} that is not the stored
     * object's ETag fails with a 412 {@link S3RequestException} (PreconditionFailed). A mid-body fault copies the
     * bytes before the break and fails: for a buffer with a {@link PartialBodyException} carrying their count.
     */
    @Override
    public CompletableFuture<GetAnswer> get(GetRequest request) {
        S3Location location = request.location();
        long start = request.start();
        String ifMatch = request.ifMatch();
        switch (request.target()) {
            case STREAM:
                try {
                    return CompletableFuture.completedFuture(
                            GetAnswer.streaming(openStream(location, start, request.endExclusive(), ifMatch)));
                } catch (IOException e) {
                    return CompletableFuture.failedFuture(e);
                }
            case BUFFER:
                ByteBuffer target = request.buffer().duplicate();
                return dispatched(() -> copyRange(location, start, target, ifMatch));
            case FILE:
                return dispatched(
                        () -> copyRangeToFile(location, start, request.endExclusive(), request.file(), ifMatch));
            default:
                throw new IllegalArgumentException("unknown target of " + request);
        }
    }

    /** Runs {@code work} as a GET on the executor (or here), held at the GET gate; its future has the answer. */
    private CompletableFuture<GetAnswer> dispatched(Callable<GetAnswer> work) {
        CompletableFuture<GetAnswer> future = new CompletableFuture<>();
        dispatch(Operation.GET, () -> {
            if (future.isDone()) {
                return;
            }
            try {
                future.complete(work.call());
            } catch (Throwable t) {
                future.completeExceptionally(t);
            }
        });
        return future;
    }

    /** The body of a ranged GET; an {@code ifMatch} that is not the stored object's ETag fails with 412. */
    private RangeStream openStream(S3Location location, long start, long endExclusive, String ifMatch)
            throws IOException {
        synchronized (lock) {
            getRanges.add(new long[] {start, endExclusive});
        }
        Started started = begin(Operation.GET, location, null, 0, endExclusive);
        Fault midBody = started.fault != null && started.fault.afterBytes() >= 0 ? started.fault : null;
        try {
            return invoke(midBody == null ? started.fault : null, () -> {
                StoredObject object = find(location);
                if (object == null) {
                    throw noSuchKey(location);
                }
                if (ifMatch != null && !ifMatch.equals(object.eTag)) {
                    throw new S3RequestException(
                            "GetObject",
                            location.toString(),
                            412,
                            "PreconditionFailed",
                            "The object changed while it was read",
                            null);
                }
                long length = object.data.length;
                if (start > 0 && start >= length) {
                    throw new EOFException(
                            "range start " + start + " is at or past the end (" + length + " bytes) of " + location);
                }
                int end = (int) Math.min(endExclusive, length);
                long breakAt = midBody == null ? Long.MAX_VALUE : start + midBody.afterBytes();
                openRangeStreams++;
                return new FakeRangeStream(object.data, object.eTag, (int) start, end, breakAt, midBody);
            });
        } catch (Exception e) {
            throw asIOException(e);
        } finally {
            end(Operation.GET);
        }
    }

    private GetAnswer copyRange(S3Location location, long start, ByteBuffer target, String ifMatch) throws IOException {
        int length = target.remaining();
        byte[] chunk = new byte[Math.min(length, 64 * 1024)];
        int copied = 0;
        try (RangeStream body = openStream(location, start, start + length, ifMatch)) {
            while (copied < length) {
                int n;
                try {
                    n = body.read(chunk, 0, Math.min(chunk.length, length - copied));
                } catch (IOException e) {
                    throw new PartialBodyException(
                            "the body of GetObject of " + location + " broke after " + copied + " bytes", copied, e);
                }
                if (n < 0) {
                    break;
                }
                target.put(chunk, 0, n);
                copied += n;
            }
            return GetAnswer.delivered(copied, body.objectLength(), body.eTag());
        }
    }

    private GetAnswer copyRangeToFile(S3Location location, long start, long endExclusive, Path file, String ifMatch)
            throws IOException {
        RangeStream opened;
        try {
            opened = openStream(location, start, endExclusive, ifMatch);
        } catch (EOFException e) {
            if (start == 0) {
                return GetAnswer.delivered(0, 0, null);
            }
            throw e;
        }
        byte[] chunk = new byte[64 * 1024];
        long written = 0;
        try (FakeRangeStream body = (FakeRangeStream) opened;
                FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE)) {
            int n;
            while ((n = body.read(chunk, 0, chunk.length)) >= 0) {
                ByteBuffer bytes = ByteBuffer.wrap(chunk, 0, n);
                while (bytes.hasRemaining()) {
                    out.write(bytes, start + written + bytes.position());
                }
                written += n;
            }
            return GetAnswer.delivered(written, body.objectLength(), body.eTag);
        }
    }

    @Override
    public ListPage list(String bucket, String prefix, String delimiter, String continuationToken, int maxKeys)
            throws IOException {
        return blocking(
                Operation.LIST,
                S3Location.of("s3", bucket, ""),
                () -> listPage(bucket, prefix == null ? "" : prefix, delimiter, continuationToken, maxKeys));
    }

    @Override
    public List<String> deleteBatch(String bucket, List<String> keys) throws IOException {
        S3Location root = S3Location.of("s3", bucket, "");
        return blocking(Operation.DELETE_BATCH, root, () -> {
            if (keys.isEmpty() || keys.size() > MAX_DELETE_KEYS) {
                throw new S3RequestException("DeleteObjects", root.toString(), 400, "MalformedXML", null);
            }
            List<String> failed = new ArrayList<>();
            for (String key : keys) {
                if (deleteDenied.test(root.withKey(key))) {
                    failed.add(key + " (AccessDenied: Access Denied)");
                } else {
                    bucket(bucket).remove(key);
                }
            }
            return failed;
        });
    }

    @Override
    public void delete(S3Location location) throws IOException {
        blocking(Operation.DELETE, location, () -> bucket(location.bucket()).remove(location.key()));
    }

    @Override
    public CompletableFuture<Void> copy(S3Location source, S3Location target, long sourceLength) {
        return async(Operation.COPY, source, null, 0, () -> {
            StoredObject object = find(source);
            if (object == null) {
                throw noSuchKey(source);
            }
            putObject(target, object.data, object.eTag);
            return null;
        });
    }

    @Override
    public CompletableFuture<String> put(S3Location location, ByteBuffer body, WriteCondition condition) {
        return async(Operation.PUT, location, null, 0, () -> {
            byte[] bytes = remainingBytes(body);
            checkCondition(location, condition);
            String eTag = quotedMd5(bytes);
            putObject(location, bytes, eTag);
            return eTag;
        });
    }

    @Override
    public CompletableFuture<String> createMultipartUpload(S3Location location) {
        return async(Operation.CREATE_MULTIPART_UPLOAD, location, null, 0, () -> {
            String uploadId = UUID.randomUUID().toString();
            uploads.put(uploadId, new Upload(location, uploadId, System.currentTimeMillis()));
            return uploadId;
        });
    }

    @Override
    public CompletableFuture<CompletedPart> uploadPart(
            S3Location location, String uploadId, int partNumber, ByteBuffer body) {
        return async(Operation.UPLOAD_PART, location, uploadId, partNumber, () -> {
            Upload upload = upload("UploadPart", location, uploadId);
            if (partNumber < 1 || partNumber > CompletedPart.MAX_PART_NUMBER) {
                throw new S3RequestException("UploadPart", location.toString(), 400, "InvalidArgument", null);
            }
            byte[] bytes = remainingBytes(body);
            StoredPart part = new StoredPart(bytes);
            upload.parts.put(partNumber, part);
            return new CompletedPart(partNumber, part.eTag, bytes.length);
        });
    }

    /**
     * Stores the part as {@link #uploadPart(S3Location, String, int, ByteBuffer)} does and remembers the checksum
     * it was sent with ({@link #partChecksums(String)}); nothing is checked.
     */
    @Override
    public CompletableFuture<CompletedPart> uploadPart(
            S3Location location, String uploadId, int partNumber, ByteBuffer body, UploadChecksum checksum) {
        synchronized (lock) {
            partChecksums.computeIfAbsent(uploadId, id -> new TreeMap<>()).put(partNumber, checksum);
        }
        return uploadPart(location, uploadId, partNumber, body);
    }

    /** The fixed checksum each part of an upload was last sent with, by part number (parts sent without one are absent). */
    public Map<Integer, UploadChecksum> partChecksums(String uploadId) {
        synchronized (lock) {
            return new TreeMap<>(partChecksums.getOrDefault(uploadId, new TreeMap<>()));
        }
    }

    @Override
    public boolean checksFlexibleChecksums() {
        return currentS3;
    }

    @Override
    public CompletableFuture<String> completeMultipartUpload(
            S3Location location, String uploadId, List<CompletedPart> parts, WriteCondition condition) {
        List<CompletedPart> requested = List.copyOf(parts);
        return async(Operation.COMPLETE_MULTIPART_UPLOAD, location, uploadId, 0, () -> {
            Upload upload = upload("CompleteMultipartUpload", location, uploadId);
            byte[] bytes = assemble(location, upload, requested);
            if (currentS3) {
                checkCondition(location, condition);
            }
            putObject(location, bytes, multipartETag(upload, requested));
            uploads.remove(uploadId);
            finishedUploadIds.add(uploadId);
            return find(location).eTag;
        });
    }

    @Override
    public CompletableFuture<Void> abortMultipartUpload(S3Location location, String uploadId) {
        return async(Operation.ABORT_MULTIPART_UPLOAD, location, uploadId, 0, () -> {
            uploads.remove(uploadId);
            finishedUploadIds.add(uploadId);
            return null;
        });
    }

    @Override
    public List<PendingUpload> listMultipartUploads(String bucket, String prefix) throws IOException {
        return blocking(Operation.LIST_MULTIPART_UPLOADS, S3Location.of("s3", bucket, ""), () -> {
            String p = prefix == null ? "" : prefix;
            List<Upload> matching = new ArrayList<>();
            for (Upload upload : uploads.values()) {
                if (upload.location.bucket().equals(bucket)
                        && upload.location.key().startsWith(p)) {
                    matching.add(upload);
                }
            }
            matching.sort(Comparator.<Upload, String>comparing(u -> u.location.key(), UTF8_ORDER)
                    .thenComparingLong(u -> u.initiatedMillis));
            List<PendingUpload> result = new ArrayList<>();
            matching.forEach(u -> result.add(u.asPending()));
            return result;
        });
    }

    @Override
    public List<CompletedPart> listParts(S3Location location, String uploadId) throws IOException {
        return blocking(Operation.LIST_PARTS, location, () -> {
            Upload upload = uploads.get(uploadId);
            if (upload == null || !upload.location.equals(location)) {
                throw new FileNotFoundException("no multipart upload " + uploadId + " for " + location);
            }
            List<CompletedPart> result = new ArrayList<>();
            upload.parts.forEach((n, part) -> result.add(new CompletedPart(n, part.eTag, part.data.length)));
            return result;
        });
    }

    // ---------------------------------------------------------------- call plumbing

    private static final class Started {
        final Call call;
        final Fault fault;

        Started(Call call, Fault fault) {
            this.call = call;
            this.fault = fault;
        }
    }

    /** Counts the call, raises the in-flight gauge and picks the fault that strikes it, if any. */
    private Started begin(Operation operation, S3Location location, String uploadId, int partNumber) {
        return begin(operation, location, uploadId, partNumber, -1);
    }

    private Started begin(Operation operation, S3Location location, String uploadId, int partNumber, long rangeEnd) {
        synchronized (lock) {
            int number = callCounts.merge(operation, 1, Integer::sum);
            int now = inFlight.merge(operation, 1, Integer::sum);
            maxInFlight.merge(operation, now, Math::max);
            Call call = new Call(operation, number, location, uploadId, partNumber, rangeEnd);
            for (Fault fault : faults) {
                if (fault.strikes(call)) {
                    return new Started(call, fault);
                }
            }
            return new Started(call, null);
        }
    }

    private void end(Operation operation) {
        synchronized (lock) {
            inFlight.merge(operation, -1, Integer::sum);
        }
    }

    /** Runs the server-side effect under the lock, with the fault before or after it. */
    private <T> T invoke(Fault fault, Callable<T> effect) throws Exception {
        if (fault != null && !fault.isAfterEffect()) {
            throw fault.newError();
        }
        T result;
        synchronized (lock) {
            result = effect.call();
        }
        if (fault != null) {
            throw fault.newError();
        }
        return result;
    }

    private <T> T blocking(Operation operation, S3Location location, Callable<T> effect) throws IOException {
        Started started = begin(operation, location, null, 0);
        try {
            return invoke(started.fault, effect);
        } catch (Exception e) {
            throw asIOException(e);
        } finally {
            end(operation);
        }
    }

    private <T> CompletableFuture<T> async(
            Operation operation, S3Location location, String uploadId, int partNumber, Callable<T> effect) {
        Started started = begin(operation, location, uploadId, partNumber);
        CompletableFuture<T> future = new CompletableFuture<>();
        Runnable work = () -> {
            T result;
            try {
                result = invoke(started.fault, effect);
            } catch (Throwable t) {
                // The gauge drops before the future completes, so a caller reacting to the completion
                // by issuing the next call never sees one call too many in flight.
                end(operation);
                future.completeExceptionally(t);
                return;
            }
            end(operation);
            future.complete(result);
        };
        dispatch(operation, work);
        return future;
    }

    /** Holds {@code work} at the operation's gate if it is closed, else runs it on the executor (or here). */
    private void dispatch(Operation operation, Runnable work) {
        Gate gate;
        synchronized (lock) {
            gate = gates.get(operation);
        }
        if (gate != null && gate.hold(work)) {
            return;
        }
        if (executor != null) {
            executor.execute(work);
        } else {
            work.run();
        }
    }

    private static IOException asIOException(Exception e) {
        if (e instanceof IOException) {
            return (IOException) e;
        }
        if (e instanceof RuntimeException) {
            throw (RuntimeException) e;
        }
        return new IOException(e);
    }

    // ---------------------------------------------------------------- store (callers hold the lock)

    private TreeMap<String, StoredObject> bucket(String bucket) {
        return buckets.computeIfAbsent(bucket, b -> new TreeMap<>(UTF8_ORDER));
    }

    private StoredObject find(S3Location location) {
        return bucket(location.bucket()).get(location.key());
    }

    private void putObject(S3Location location, byte[] bytes, String eTag) {
        bucket(location.bucket()).put(location.key(), new StoredObject(bytes, eTag, System.currentTimeMillis()));
    }

    private void checkCondition(S3Location location, WriteCondition condition) throws FileAlreadyExistsException {
        if (condition == WriteCondition.IF_NONE_MATCH && find(location) != null) {
            throw new FileAlreadyExistsException(
                    location.toString(),
                    null,
                    "an object exists at the key (412 Precondition Failed on If-None-Match: *)");
        }
    }

    private Upload upload(String operation, S3Location location, String uploadId) throws S3RequestException {
        Upload upload = uploads.get(uploadId);
        if (upload == null || !upload.location.equals(location)) {
            // Unknown, aborted and already completed ids all look the same to a client.
            throw new S3RequestException(operation, location.toString(), 404, "NoSuchUpload", null);
        }
        return upload;
    }

    private static byte[] assemble(S3Location location, Upload upload, List<CompletedPart> requested)
            throws S3RequestException {
        String where = location.toString();
        if (requested.isEmpty()) {
            throw new S3RequestException("CompleteMultipartUpload", where, 400, "MalformedXML", null);
        }
        int previous = 0;
        for (CompletedPart part : requested) {
            if (part.partNumber() <= previous) {
                throw new S3RequestException("CompleteMultipartUpload", where, 400, "InvalidPartOrder", null);
            }
            previous = part.partNumber();
            StoredPart stored = upload.parts.get(part.partNumber());
            if (stored == null || !stored.eTag.equals(part.eTag())) {
                throw new S3RequestException("CompleteMultipartUpload", where, 400, "InvalidPart", null);
            }
        }
        long total = 0;
        for (int i = 0; i < requested.size(); i++) {
            int size = upload.parts.get(requested.get(i).partNumber()).data.length;
            if (i < requested.size() - 1 && size < MIN_PART_SIZE) {
                throw new S3RequestException("CompleteMultipartUpload", where, 400, "EntityTooSmall", null);
            }
            total += size;
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new S3RequestException("CompleteMultipartUpload", where, 400, "EntityTooLarge", null);
        }
        byte[] bytes = new byte[(int) total];
        int at = 0;
        for (CompletedPart part : requested) {
            byte[] data = upload.parts.get(part.partNumber()).data;
            System.arraycopy(data, 0, bytes, at, data.length);
            at += data.length;
        }
        return bytes;
    }

    private ListPage listPage(String bucket, String prefix, String delimiter, String token, int maxKeys) {
        if (maxKeys <= 0) {
            return new ListPage(List.of(), List.of(), null);
        }
        int limit = Math.min(maxKeys, MAX_LIST_KEYS);
        boolean grouping = delimiter != null && !delimiter.isEmpty();
        ListCursor after = token == null ? null : ListCursor.decode(token);
        String from = after != null && UTF8_ORDER.compare(after.entry, prefix) > 0 ? after.entry : prefix;
        NavigableMap<String, StoredObject> candidates = bucket(bucket).tailMap(from, true);
        List<ObjectMetadata> objects = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        ListCursor last = null;
        for (Map.Entry<String, StoredObject> entry : candidates.entrySet()) {
            String key = entry.getKey();
            if (!key.startsWith(prefix)) {
                break;
            }
            if (after != null && after.covers(key)) {
                continue;
            }
            String commonPrefix = null;
            if (grouping) {
                int at = key.indexOf(delimiter, prefix.length());
                commonPrefix = at < 0 ? null : key.substring(0, at + delimiter.length());
            }
            if (commonPrefix != null && last != null && last.isPrefix && last.entry.equals(commonPrefix)) {
                continue;
            }
            if (objects.size() + prefixes.size() == limit) {
                return new ListPage(objects, prefixes, last.encode());
            }
            if (commonPrefix != null) {
                prefixes.add(commonPrefix);
                last = new ListCursor(commonPrefix, true);
            } else {
                objects.add(entry.getValue().metadata(key));
                last = new ListCursor(key, false);
            }
        }
        return new ListPage(objects, prefixes, null);
    }

    /** Position of a continuation token: the last entry returned and whether it was a common prefix. */
    private static final class ListCursor {
        final String entry;
        final boolean isPrefix;

        ListCursor(String entry, boolean isPrefix) {
            this.entry = entry;
            this.isPrefix = isPrefix;
        }

        /** True if {@code key} was already returned on an earlier page (itself or inside the prefix). */
        boolean covers(String key) {
            return UTF8_ORDER.compare(key, entry) <= 0 || (isPrefix && key.startsWith(entry));
        }

        String encode() {
            String raw = (isPrefix ? "P" : "K") + entry;
            return Base64.getUrlEncoder().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
        }

        static ListCursor decode(String token) {
            String raw = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            return new ListCursor(raw.substring(1), raw.charAt(0) == 'P');
        }
    }

    // ---------------------------------------------------------------- values

    private static final class StoredObject {
        final byte[] data;
        final String eTag;
        final long lastModifiedMillis;

        StoredObject(byte[] data, String eTag, long lastModifiedMillis) {
            this.data = data;
            this.eTag = eTag;
            this.lastModifiedMillis = lastModifiedMillis;
        }

        ObjectMetadata metadata(String key) {
            return new ObjectMetadata(key, data.length, eTag, lastModifiedMillis);
        }
    }

    private static final class StoredPart {
        final byte[] data;
        final byte[] md5;
        final String eTag;

        StoredPart(byte[] data) {
            this.data = data;
            this.md5 = md5().digest(data);
            this.eTag = "\"" + hex(md5) + "\"";
        }
    }

    private static final class Upload {
        final S3Location location;
        final String uploadId;
        final long initiatedMillis;
        final TreeMap<Integer, StoredPart> parts = new TreeMap<>();

        Upload(S3Location location, String uploadId, long initiatedMillis) {
            this.location = location;
            this.uploadId = uploadId;
            this.initiatedMillis = initiatedMillis;
        }

        PendingUpload asPending() {
            return new PendingUpload(location.key(), uploadId, initiatedMillis);
        }
    }

    /** A GET body over an immutable byte array; optionally breaks (connection reset) at an offset. */
    private final class FakeRangeStream extends RangeStream {
        private final byte[] data;
        private final String eTag;
        private final int end;
        private final long breakAt;
        private final Fault breaker;
        private int position;
        private boolean released;
        private boolean aborted;

        FakeRangeStream(byte[] data, String eTag, int start, int end, long breakAt, Fault breaker) {
            this.data = data;
            this.eTag = eTag;
            this.position = start;
            this.end = end;
            this.breakAt = breakAt;
            this.breaker = breaker;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (aborted) {
                throw new IOException("read after abort");
            }
            if (released) {
                throw new IOException("read after close");
            }
            if (len == 0) {
                return 0;
            }
            synchronized (lock) {
                rangeStreamReads++;
            }
            if (position >= breakAt) {
                throw asIOException(breaker.newError());
            }
            if (position >= end) {
                return -1;
            }
            int n = (int) Math.min(Math.min(len, end - position), breakAt - position);
            System.arraycopy(data, position, b, off, n);
            position += n;
            return n;
        }

        @Override
        public int available() {
            return (int) Math.max(0, Math.min(end, breakAt) - position);
        }

        @Override
        public void abort() {
            if (release()) {
                aborted = true;
                synchronized (lock) {
                    abortedRangeStreams++;
                }
            }
        }

        @Override
        public void close() {
            release();
        }

        @Override
        public long objectLength() {
            return data.length;
        }

        @Override
        public String eTag() {
            return eTag;
        }

        private boolean release() {
            if (released) {
                return false;
            }
            released = true;
            synchronized (lock) {
                openRangeStreams--;
            }
            return true;
        }
    }

    // ---------------------------------------------------------------- helpers

    private static byte[] remainingBytes(ByteBuffer body) {
        ByteBuffer view = body.duplicate();
        byte[] bytes = new byte[view.remaining()];
        view.get(bytes);
        return bytes;
    }

    private static FileNotFoundException noSuchKey(S3Location location) {
        return new FileNotFoundException("No such object: " + location);
    }

    private static String quotedMd5(byte[] bytes) {
        return "\"" + hex(md5().digest(bytes)) + "\"";
    }

    /** S3's multipart ETag: MD5 of the concatenated binary part MD5s, a dash and the part count. */
    private static String multipartETag(Upload upload, List<CompletedPart> parts) {
        MessageDigest digest = md5();
        for (CompletedPart part : parts) {
            digest.update(upload.parts.get(part.partNumber()).md5);
        }
        return "\"" + hex(digest.digest()) + "-" + parts.size() + "\"";
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is required of every JVM", e);
        }
    }

    private static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            sb.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return sb.toString();
    }

    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
