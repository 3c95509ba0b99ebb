package dev.flinks3.writer;

import static dev.flinks3.writer.FakeS3Writer.PART;
import static dev.flinks3.writer.FakeS3Writer.concat;
import static dev.flinks3.writer.FakeS3Writer.random;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.fake.Fault;
import dev.flinks3.transfer.fake.Operation;
import java.io.IOException;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * What the recoverable writer does at each point where S3 can fail it between a checkpoint and the
 * commit that follows (issue 3): a part upload failing, the complete call failing (before the server
 * acted, or after it completed and the response was lost), the upload aborted by someone else, and a
 * stale object already at the key.
 */
class S3RecoverableWriterFailureTest {

    private final FakeS3Writer fake = new FakeS3Writer();

    @Nested
    class PartUploadFails {

        @Test
        void beforeAnyPersistThePersistFailsAndCloseAbortsTheUpload() throws IOException {
            IOException cause = new IOException("part lost");
            fake.client.inject(Fault.on(Operation.UPLOAD_PART).atCall(2).failingWith(cause));
            RecoverableFsDataOutputStream out = fake.writer.open(fake.path);
            out.write(random(2 * PART + 1, 7));

            assertThatThrownBy(out::persist).isInstanceOf(IOException.class).hasCause(cause);
            out.close();
            assertThat(fake.client.pendingUploads()).isEmpty();
            assertThat(fake.client.keys("bucket")).isEmpty();
        }

        @Test
        void afterAPersistTheUploadIsKeptAndThePersistedStateRecovers() throws IOException {
            byte[] before = random(PART + 10, 1);
            RecoverableFsDataOutputStream out = fake.writer.open(fake.path);
            out.write(before);
            S3ResumeRecoverable persisted = fake.roundTrip(out.persist());
            fake.client.inject(Fault.on(Operation.UPLOAD_PART).failingWith(new IOException("part lost")));

            Throwable failure = catchThrowable(() -> {
                out.write(random(2 * PART, 2));
                out.persist();
            });
            out.close();

            assertThat(failure).isInstanceOf(IOException.class);
            assertThat(fake.client.pendingUploads())
                    .as("handed out by the persist: kept")
                    .hasSize(1);
            byte[] after = random(100, 3);
            RecoverableFsDataOutputStream recovered = fake.writer.recover(persisted);
            recovered.write(after);
            recovered.closeForCommit().commit();
            assertThat(fake.client.bytesOf(fake.target)).isEqualTo(concat(before, after));
            assertThat(fake.client.pendingUploads()).isEmpty();
            assertThat(fake.tailKeys()).isEmpty();
        }
    }

    @Nested
    class CompleteFails {

        @Test
        void afterTheServerCompletedTheCommitSucceeds() throws IOException {
            fake.client.inject(Fault.on(Operation.COMPLETE_MULTIPART_UPLOAD)
                    .afterEffect()
                    .failingWith(new IOException("connection reset")));
            byte[] data = random(PART + 1, 8);
            RecoverableFsDataOutputStream out = fake.writer.open(fake.path);
            out.write(data);

            out.closeForCommit().commit();
            assertThat(fake.client.bytesOf(fake.target)).isEqualTo(data);
        }

        @Test
        void afterTheServerCompletedTheCommitAfterRecoverySucceeds() throws IOException {
            fake.client.inject(Fault.on(Operation.COMPLETE_MULTIPART_UPLOAD)
                    .afterEffect()
                    .failingWith(new IOException("connection reset")));
            byte[] data = random(2 * PART + 1, 9);
            RecoverableFsDataOutputStream out = fake.writer.open(fake.path);
            out.write(data);
            S3CommitRecoverable recoverable =
                    fake.roundTrip(out.closeForCommit().getRecoverable());

            fake.writer.recoverForCommit(recoverable).commitAfterRecovery();
            assertThat(fake.client.bytesOf(fake.target)).isEqualTo(data);
            assertThat(fake.client.pendingUploads()).isEmpty();
        }

        @Test
        void beforeTheServerActedTheCommitFailsAndKeepsTheUploadForARetry() throws IOException {
            fake.client.inject(Fault.on(Operation.COMPLETE_MULTIPART_UPLOAD)
                    .failingWith(new S3RequestException(
                            "CompleteMultipartUpload", fake.target.toString(), 500, "InternalError", null)));
            byte[] data = random(PART + 1, 10);
            RecoverableFsDataOutputStream out = fake.writer.open(fake.path);
            out.write(data);
            RecoverableFsDataOutputStream.Committer committer = out.closeForCommit();

            assertThatThrownBy(committer::commit)
                    .isInstanceOf(S3RequestException.class)
                    .hasMessageContaining("InternalError");
            assertThat(fake.client.exists(fake.target)).isFalse();
            assertThat(fake.client.pendingUploads()).hasSize(1);

            fake.writer
                    .recoverForCommit(fake.roundTrip(committer.getRecoverable()))
                    .commitAfterRecovery();
            assertThat(fake.client.bytesOf(fake.target)).isEqualTo(data);
        }
    }

    @Nested
    class UploadAbortedOutOfBand {

        @Test
        void whileWritingTheNextPartFailsAndNothingAppears() throws IOException {
            RecoverableFsDataOutputStream out = fake.writer.open(fake.path);
            out.write(random(PART + 1, 11));
            S3ResumeRecoverable persisted = (S3ResumeRecoverable) out.persist();
            fake.client.abortMultipartUpload(fake.target, persisted.uploadId()).join();

            Throwable failure = catchThrowable(() -> {
                out.write(random(PART, 12));
                out.persist();
            });
            out.close();

            assertThat(failure).isInstanceOf(IOException.class);
            assertThat(failure).hasStackTraceContaining("NoSuchUpload");
            assertThat(fake.client.exists(fake.target)).isFalse();
        }

        @Test
        void recoverFailsNamingTheUpload() throws IOException {
            RecoverableFsDataOutputStream out = fake.writer.open(fake.path);
            out.write(random(PART + 1, 13));
            S3ResumeRecoverable persisted = (S3ResumeRecoverable) out.persist();
            out.close();
            fake.client.abortMultipartUpload(fake.target, persisted.uploadId()).join();

            assertThatThrownBy(() -> fake.writer.recover(persisted))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(persisted.uploadId())
                    .hasMessageContaining("no longer exists");
        }

        @Test
        void commitAfterRecoveryFailsWhenNothingIsAtTheKey() throws IOException {
            RecoverableFsDataOutputStream out = fake.writer.open(fake.path);
            out.write(random(PART + 1, 14));
            S3CommitRecoverable recoverable =
                    (S3CommitRecoverable) out.closeForCommit().getRecoverable();
            fake.client
                    .abortMultipartUpload(fake.target, recoverable.uploadId())
                    .join();

            assertThatThrownBy(() -> fake.writer.recoverForCommit(recoverable).commitAfterRecovery())
                    .isInstanceOf(S3RequestException.class)
                    .hasMessageContaining("NoSuchUpload");
        }
    }

    @Nested
    class StaleObjectAtTheKey {

        @Test
        void ofAnotherLengthCommitAfterRecoveryRefusesIt() throws IOException {
            S3CommitRecoverable recoverable = closedAndAborted(random(PART + 1, 15));
            fake.client.store(fake.target, new byte[3]);

            assertThatThrownBy(() -> fake.writer.recoverForCommit(recoverable).commitAfterRecovery())
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(fake.target.toString())
                    .hasMessageContaining("3 bytes")
                    .hasMessageContaining((PART + 1) + " bytes");
        }

        @Test
        void ofTheSameLengthFromAnotherUploadCommitAfterRecoveryRefusesIt() throws IOException {
            S3CommitRecoverable recoverable = closedAndAborted(random(PART + 1, 16));
            RecoverableFsDataOutputStream other = fake.writer.open(fake.path);
            other.write(random(PART + 1, 17));
            other.closeForCommit().commit();

            assertThatThrownBy(() -> fake.writer.recoverForCommit(recoverable).commitAfterRecovery())
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(fake.target.toString())
                    .hasMessageContaining("ETag");
        }

        @Test
        void recoverRefusesToResumeOverIt() throws IOException {
            RecoverableFsDataOutputStream out = fake.writer.open(fake.path);
            out.write("x".getBytes());
            RecoverableWriter.ResumeRecoverable persisted = out.persist();
            out.close();
            fake.client.store(fake.target, "stale".getBytes());

            assertThatThrownBy(() -> fake.writer.recover(persisted))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining(fake.target.toString())
                    .hasMessageContaining("already exists");
        }

        @Test
        void aFirstCommitReplacesIt() throws IOException {
            fake.client.store(fake.target, "stale".getBytes());
            byte[] data = random(PART + 1, 18);
            RecoverableFsDataOutputStream out = fake.writer.open(fake.path);
            out.write(data);

            out.closeForCommit().commit();
            assertThat(fake.client.bytesOf(fake.target)).isEqualTo(data);
        }
    }

    /** Writes {@code data}, closes for commit and aborts the upload, as an expired or cleaned-up upload looks. */
    private S3CommitRecoverable closedAndAborted(byte[] data) throws IOException {
        RecoverableFsDataOutputStream out = fake.writer.open(fake.path);
        out.write(data);
        S3CommitRecoverable recoverable =
                (S3CommitRecoverable) out.closeForCommit().getRecoverable();
        fake.client.abortMultipartUpload(fake.target, recoverable.uploadId()).join();
        return recoverable;
    }

    /**
     * Deleting tails is clean-up after the data is safe: when S3 refuses it, recovery, clean-up and
     * commit still succeed, and the tails are left for later (issue 12: a FileSink restore looped on a
     * server that failed DeleteObjects).
     */
    @Nested
    class TailCleanupFails {

        @Test
        void recoveryGoesOnWhenTheLaterTailsCannotBeDeleted() throws IOException {
            RecoverableFsDataOutputStream out = fake.writer.open(fake.path);
            out.write("restored.".getBytes());
            S3ResumeRecoverable restored = fake.roundTrip(out.persist());
            out.write("lost.".getBytes());
            out.persist(); // a later checkpoint that never completed
            out.close();
            fake.client.inject(Fault.on(Operation.DELETE_BATCH)
                    .always()
                    .failingWith(() ->
                            new S3RequestException("DeleteObjects", "s3://bucket/tails", 403, "AccessDenied", null)));

            RecoverableFsDataOutputStream recovered = fake.writer.recover(restored);
            recovered.write("more.".getBytes());
            recovered.closeForCommit().commit();

            assertThat(new String(fake.client.bytesOf(fake.target))).isEqualTo("restored.more.");
            assertThat(fake.tailKeys()).as("left for later").hasSize(2);
            assertThat(fake.client.pendingUploads()).isEmpty();
        }

        @Test
        void cleanupOfARecoverableReportsFalseInsteadOfThrowing() throws IOException {
            RecoverableFsDataOutputStream out = fake.writer.open(fake.path);
            out.write("a".getBytes());
            S3ResumeRecoverable persisted = fake.roundTrip(out.persist());
            out.close();
            fake.client.inject(Fault.on(Operation.DELETE).always().failingWith(new IOException("refused")));

            assertThat(fake.writer.cleanupRecoverableState(persisted)).isFalse();
            assertThat(fake.tailKeys()).hasSize(1);
        }
    }
}
