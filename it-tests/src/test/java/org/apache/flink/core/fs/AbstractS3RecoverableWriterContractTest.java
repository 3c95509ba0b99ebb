package org.apache.flink.core.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.util.IOUtils;
import org.junit.jupiter.api.Test;

/**
 * Flink's {@link AbstractRecoverableWriterTest} for our {@code s3://} filesystem against one server;
 * subclasses name the server. Everything runs unmodified except the four {@code testRecover*} methods and
 * {@code testResumeWithWrongOffset} (which closes a stream Flink's version leaves open).
 *
 * <p><b>Documented deviation.</b> Flink's versions of those four (through its private {@code
 * testResumeAfterMultiplePersist}) assert that right after {@code recover()} the directory lists
 * exactly one file named {@code .part-0.inprogress.*} holding the persisted bytes. That is the local
 * filesystem's model, where an in-progress file is a real file that recovery truncates. On S3 nothing
 * of an in-progress file is visible before the commit: the persisted bytes are the parts of an
 * incomplete multipart upload, which no listing shows, plus a tail object, which the filesystem hides
 * on purpose (issue 3: tails never show in {@code listStatus}). No honest implementation can show one
 * file with the persisted bytes there: the recovered state may consist of parts only (no object at
 * all), the empty state has nothing, and tails of earlier persists still exist beside a later one. The
 * overrides check the same recover, write, commit, final-contents contract instead: right after
 * recovery nothing is visible and the stream stands at the persisted length; after the commit the
 * directory lists exactly {@code part-0} with the expected contents.
 *
 * <p>These classes live in Flink's package because the suite's test methods are package-private:
 * only a subclass in the same package overrides them.
 */
abstract class AbstractS3RecoverableWriterContractTest extends AbstractRecoverableWriterTest {

    private static final String DATA_1 = "THIS IS A TEST 1.";
    private static final String DATA_2 = "THIS IS A TEST 2.";
    private static final String DATA_3 = "THIS IS A TEST 3.";

    private static final String EMPTY = "EMPTY";
    private static final String WITH_STATE = "INTERM-STATE";
    private static final String NO_ADDITIONAL_STATE = "INTERM-IMMEDIATE";
    private static final String FINAL = "FINAL";

    private final String runPrefix = "recoverable-writer-" + UUID.randomUUID();

    /** The server's test bucket; may skip the test with an assumption. */
    protected abstract String bucket();

    /** Flink configuration pointing {@code s3://} at the server. */
    protected abstract Configuration flinkConfiguration();

    @Override
    public Path getBasePath() {
        return new Path("s3://" + bucket() + "/" + runPrefix);
    }

    /** Our filesystem as Flink code obtains it: {@link FileSystem#initialize} and the path's scheme. */
    @Override
    public FileSystem initializeFileSystem() throws Exception {
        FileSystem.initialize(flinkConfiguration(), null);
        return getBasePath().getFileSystem();
    }

    // Deviation (see the class comment): on S3 no in-progress file is listed after recover().
    @Test
    @Override
    void testRecoverWithEmptyState() throws Exception {
        resumeAfterMultiplePersist(EMPTY, "", DATA_3);
    }

    // Deviation (see the class comment): on S3 no in-progress file is listed after recover().
    @Test
    @Override
    void testRecoverWithState() throws Exception {
        resumeAfterMultiplePersist(WITH_STATE, DATA_1, DATA_1 + DATA_3);
    }

    // Deviation (see the class comment): on S3 no in-progress file is listed after recover().
    @Test
    @Override
    void testRecoverFromIntermWithoutAdditionalState() throws Exception {
        resumeAfterMultiplePersist(NO_ADDITIONAL_STATE, DATA_1, DATA_1 + DATA_3);
    }

    // Deviation (see the class comment): on S3 no in-progress file is listed after recover().
    @Test
    @Override
    void testRecoverAfterMultiplePersistsState() throws Exception {
        resumeAfterMultiplePersist(FINAL, DATA_1 + DATA_2, DATA_1 + DATA_2 + DATA_3);
    }

    /**
     * Deviation (test hygiene, same checks): Flink's version recovers the first state and drops the stream it gets
     * without closing it. That stream holds its first part buffer (the recovered tail is written back into it) in
     * the process-wide upload budget for the rest of the JVM, so the upload budget tests of later classes saw 64 KiB
     * held per server. Here the recovered stream is closed.
     */
    @Test
    @Override
    void testResumeWithWrongOffset() throws Exception {
        Path path = new Path(getBasePathForTest(), "part-0");
        RecoverableWriter writer = fileSystem().createRecoverableWriter();
        RecoverableWriter.ResumeRecoverable first;
        RecoverableWriter.ResumeRecoverable second;
        RecoverableFsDataOutputStream stream = null;
        try {
            stream = writer.open(path);
            stream.write(bytes(DATA_1));
            first = stream.persist();
            stream.write(bytes(DATA_2));
            second = stream.persist();
            stream.write(bytes(DATA_3));
        } finally {
            IOUtils.closeQuietly(stream);
        }

        try (RecoverableFsDataOutputStream recovered = writer.recover(first)) {
            assertThat(recovered.getPos()).isEqualTo(bytes(DATA_1).length);
        }
        // Recovering the first state dropped what was persisted after it: the second cannot be resumed.
        assertThatThrownBy(() -> writer.recover(second)).isInstanceOf(IOException.class);
    }

    /**
     * Persists four states of one stream (empty, after data 1, again without new data, after data 2),
     * recovers the named one through a fresh writer's serializer, writes data 3 and commits.
     */
    private void resumeAfterMultiplePersist(String persistName, String expectedAtRecovery, String expectedFinal)
            throws Exception {
        Path testDir = getBasePathForTest();
        Path path = new Path(testDir, "part-0");
        RecoverableWriter initWriter = fileSystem().createRecoverableWriter();

        Map<String, RecoverableWriter.ResumeRecoverable> recoverables = new HashMap<>();
        RecoverableFsDataOutputStream stream = null;
        try {
            stream = initWriter.open(path);
            recoverables.put(EMPTY, stream.persist());
            stream.write(bytes(DATA_1));
            recoverables.put(WITH_STATE, stream.persist());
            recoverables.put(NO_ADDITIONAL_STATE, stream.persist());
            stream.write(bytes(DATA_2));
            recoverables.put(FINAL, stream.persist());
        } finally {
            IOUtils.closeQuietly(stream);
        }
        SimpleVersionedSerializer<RecoverableWriter.ResumeRecoverable> serializer =
                initWriter.getResumeRecoverableSerializer();
        byte[] serialized = serializer.serialize(recoverables.get(persistName));

        RecoverableWriter newWriter = fileSystem().createRecoverableWriter();
        RecoverableWriter.ResumeRecoverable recoverable =
                newWriter.getResumeRecoverableSerializer().deserialize(serializer.getVersion(), serialized);

        RecoverableFsDataOutputStream recovered = null;
        try {
            recovered = newWriter.recover(recoverable);
            assertThat(filesIn(testDir)).as("visible before the commit").isEmpty();
            assertThat(recovered.getPos()).isEqualTo(bytes(expectedAtRecovery).length);

            recovered.write(bytes(DATA_3));
            recovered.closeForCommit().commit();

            assertThat(filesIn(testDir)).containsExactly(entry("part-0", expectedFinal));
        } finally {
            IOUtils.closeQuietly(recovered);
        }
    }

    /** Name and UTF-8 contents of every entry {@code listStatus} shows in the directory. */
    private Map<String, String> filesIn(Path dir) throws IOException {
        Map<String, String> contents = new LinkedHashMap<>();
        for (FileStatus status : fileSystem().listStatus(dir)) {
            try (InputStream in = fileSystem().open(status.getPath())) {
                contents.put(status.getPath().getName(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        return contents;
    }

    private FileSystem fileSystem() throws IOException {
        return getBasePath().getFileSystem();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
