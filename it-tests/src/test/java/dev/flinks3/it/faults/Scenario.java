package dev.flinks3.it.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.testserver.RequestKind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Random;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * One filesystem operation per S3 request kind the fault suites spoil: what is prepared directly on
 * the server, what the filesystem does, and what must be true afterwards. Objects are prepared and
 * checked with a plain SDK client that talks to the server directly, not through the proxy.
 */
enum Scenario {

    /** A small file: one PutObject (If-None-Match: *) at close. */
    PUT_OBJECT(RequestKind.PUT_OBJECT, "PutObject", false, Payload.SMALL),

    /** A file of three 5 MiB parts: the fault hits UploadPart. */
    UPLOAD_PART(RequestKind.UPLOAD_PART, "UploadPart", false, Payload.LARGE),

    /** A file of three 5 MiB parts: the fault hits CompleteMultipartUpload (If-None-Match: *). */
    COMPLETE_MULTIPART_UPLOAD(RequestKind.COMPLETE_MULTIPART_UPLOAD, "CompleteMultipartUpload", true, Payload.LARGE),

    /** A sequential read of a whole 3 MiB object: one ranged GET. */
    GET_OBJECT(RequestKind.GET_OBJECT, "GetObject", true, null) {
        @Override
        void prepare(Context c) {
            c.put(c.file(), Payload.MEDIUM);
        }

        @Override
        void run(Context c) throws IOException {
            c.read = c.readFully(c.file());
        }

        @Override
        void assertSucceeded(Context c) {
            assertThat(c.read).as("bytes read from %s", c.file()).isEqualTo(Payload.MEDIUM);
        }
    },

    /** A listing of a directory of three files. */
    LIST_OBJECTS_V2(RequestKind.LIST_OBJECTS_V2, "ListObjectsV2", true, null) {
        @Override
        void prepare(Context c) {
            for (String name : THREE_NAMES) {
                c.put(new Path(c.dir, name), Payload.SMALL);
            }
        }

        @Override
        void run(Context c) throws IOException {
            c.listed = c.fs.listStatus(c.dir);
        }

        @Override
        void assertSucceeded(Context c) {
            assertThat(c.listed)
                    .extracting(status -> status.getPath().getName())
                    .containsExactlyInAnyOrder(THREE_NAMES);
            assertThat(c.listed)
                    .allSatisfy(status -> assertThat(status.getLen()).isEqualTo(Payload.SMALL.length));
        }

        @Override
        String location(Context c) {
            return c.uri(c.dir) + "/";
        }
    },

    /** A recursive delete of a directory of three files: one DeleteObjects. */
    DELETE_OBJECTS(RequestKind.DELETE_OBJECTS, "DeleteObjects", true, null) {
        @Override
        void prepare(Context c) {
            for (String name : THREE_NAMES) {
                c.put(new Path(c.file(), name), Payload.SMALL);
            }
        }

        @Override
        void run(Context c) throws IOException {
            assertThat(c.fs.delete(c.file(), true)).isTrue();
        }

        @Override
        void assertSucceeded(Context c) {
            assertThat(c.keysUnder(c.file()))
                    .as("objects left under %s", c.file())
                    .isEmpty();
        }
    },

    /** The status of one file: one HeadObject. */
    HEAD_OBJECT(RequestKind.HEAD_OBJECT, "HeadObject", false, null) {
        @Override
        void prepare(Context c) {
            c.put(c.file(), Payload.SMALL);
        }

        @Override
        void run(Context c) throws IOException {
            c.status = c.fs.getFileStatus(c.file());
        }

        @Override
        void assertSucceeded(Context c) {
            assertThat(c.status.isDir()).isFalse();
            assertThat(c.status.getLen()).isEqualTo(Payload.SMALL.length);
        }
    };

    static final String[] THREE_NAMES = {"a", "b", "c"};

    private final RequestKind kind;
    private final String operation;
    private final boolean hasResponseBody;
    private final byte[] written;

    /** @param written the bytes a writing scenario writes to {@link Context#file()}; {@code null} if it does not write */
    Scenario(RequestKind kind, String operation, boolean hasResponseBody, byte[] written) {
        this.kind = kind;
        this.operation = operation;
        this.hasResponseBody = hasResponseBody;
        this.written = written;
    }

    /** The request kind the fault is armed for. */
    RequestKind kind() {
        return kind;
    }

    /** The S3 operation's name, as the SDK's metrics name it. */
    String operation() {
        return operation;
    }

    /** Whether the answer to this kind has a body a connection can break in the middle of. */
    boolean hasResponseBody() {
        return hasResponseBody;
    }

    /** Whether the operation writes an object (and may leave a partial one or an upload behind). */
    boolean writes() {
        return written != null;
    }

    /** Whether a fault on the given kind can apply to this scenario. */
    boolean accepts(Fault fault) {
        boolean midBody = fault.type() == Fault.Type.RESET_MID_BODY || fault.type() == Fault.Type.CLOSE_MID_BODY;
        return !midBody || hasResponseBody;
    }

    /** Puts the objects the operation needs on the server. */
    void prepare(Context c) {}

    /** The filesystem operation that sends a request of {@link #kind()}; a writing scenario writes its bytes. */
    void run(Context c) throws IOException {
        c.write(c.file(), written);
    }

    /** What must be true when the operation succeeded; for a writing scenario, the object holds its bytes. */
    void assertSucceeded(Context c) {
        c.assertObject(c.file(), written);
    }

    /** The {@code s3://} location a failure must name. */
    String location(Context c) {
        return c.uri(c.file());
    }

    @Override
    public String toString() {
        return operation;
    }

    /** The objects' contents, apart from the enum so its constants can name them. */
    static final class Payload {
        static final int MIB = 1024 * 1024;
        static final byte[] SMALL = bytes(100 * 1024, 1);
        static final byte[] MEDIUM = bytes(3 * MIB, 2);
        static final byte[] LARGE = bytes(11 * MIB, 3);

        private Payload() {}

        private static byte[] bytes(int size, long seed) {
            byte[] bytes = new byte[size];
            new Random(seed).nextBytes(bytes);
            return bytes;
        }
    }

    /** The filesystem, the direct client and the directory of one run, and what the operation returned. */
    static final class Context {
        final FileSystem fs;
        final S3Client s3;
        final String bucket;
        final Path dir;
        byte[] read;
        FileStatus[] listed;
        FileStatus status;

        Context(FileSystem fs, S3Client s3, String bucket, Path dir) {
            this.fs = fs;
            this.s3 = s3;
            this.bucket = bucket;
            this.dir = dir;
        }

        /** The file (or, for deletes, the directory) the operation works on. */
        Path file() {
            return new Path(dir, "target");
        }

        String key(Path path) {
            String p = path.toUri().getPath();
            return p.startsWith("/") ? p.substring(1) : p;
        }

        String uri(Path path) {
            return "s3://" + bucket + "/" + key(path);
        }

        void put(Path path, byte[] data) {
            s3.putObject(b -> b.bucket(bucket).key(key(path)), RequestBody.fromBytes(data));
        }

        void write(Path path, byte[] data) throws IOException {
            try (FSDataOutputStream out = fs.create(path, WriteMode.NO_OVERWRITE)) {
                out.write(data);
            }
        }

        byte[] readFully(Path path) throws IOException {
            try (InputStream in = fs.open(path)) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                in.transferTo(bytes);
                return bytes.toByteArray();
            }
        }

        /** The object's bytes equal {@code expected} exactly: nothing lost, nothing duplicated. */
        void assertObject(Path path, byte[] expected) {
            byte[] actual =
                    s3.getObjectAsBytes(b -> b.bucket(bucket).key(key(path))).asByteArray();
            assertThat(actual.length).as("length of %s", uri(path)).isEqualTo(expected.length);
            assertThat(Arrays.equals(actual, expected))
                    .as("bytes of %s are exactly the bytes written", uri(path))
                    .isTrue();
        }

        java.util.List<String> keysUnder(Path path) {
            return s3.listObjectsV2(b -> b.bucket(bucket).prefix(key(path) + "/")).contents().stream()
                    .map(o -> o.key())
                    .toList();
        }

        /** No object is visible at the operation's file and no multipart upload is left in the directory. */
        void assertNothingLeftBehind() {
            assertThat(s3.listObjectsV2(b -> b.bucket(bucket).prefix(key(dir) + "/"))
                            .contents())
                    .as("objects under %s", uri(dir))
                    .isEmpty();
            assertThat(s3.listMultipartUploads(b -> b.bucket(bucket).prefix(key(dir) + "/"))
                            .uploads())
                    .as("multipart uploads under %s", uri(dir))
                    .isEmpty();
        }
    }
}
