package dev.flinks3.it.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.it.SharedS3ProxyTarget;
import dev.flinks3.it.security.CapturedLogs;
import dev.flinks3.testserver.RequestKind;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Issue 12: a server that refuses every delete (DeleteObjects and DeleteObject answered 403
 * AccessDenied by the proxy in front of S3Proxy) cannot fail a recovery, a clean-up or a commit of the
 * recoverable writer. Deleting tail objects is clean-up after the data is safe: the tails are left,
 * one warning says so, and the committed object holds exactly the bytes of the recovered stream.
 * Before, the failed DeleteObjects of {@code recover()} failed every restore of a FileSink.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TailCleanupFailureTest {

    private static final String TAIL_STORE_LOGGER = "dev.flinks3.writer.TailStore";

    @Test
    void recoverCleanupAndCommitSucceedWhenEveryDeleteIsRefused() throws Exception {
        String bucket = SharedS3ProxyTarget.bucket();
        Path target = new Path("s3://" + bucket + "/TailCleanupFailureTest/" + UUID.randomUUID() + "/part-0");
        try (FaultInjectingProxy proxy =
                        new FaultInjectingProxy(SharedS3ProxyTarget.server().endpoint());
                ProxiedFileSystem fileSystem = ProxiedFileSystem.create(proxy, Map.of());
                S3Client s3 = SharedS3ProxyTarget.sdkClient();
                CapturedLogs logs = CapturedLogs.capture(TAIL_STORE_LOGGER)) {
            RecoverableWriter writer = fileSystem.fs().createRecoverableWriter();
            RecoverableFsDataOutputStream out = writer.open(target);
            out.write(bytes("restored."));
            RecoverableWriter.ResumeRecoverable restored = out.persist();
            out.write(bytes("lost."));
            RecoverableWriter.ResumeRecoverable later = out.persist(); // a checkpoint that never completed
            out.close();
            Fault refused = Fault.error(403, "AccessDenied", "Access Denied");
            FaultRule batchDeletes = proxy.failAlways(RequestKind.DELETE_OBJECTS, refused);
            FaultRule singleDeletes = proxy.failAlways(RequestKind.DELETE_OBJECT, refused);

            RecoverableFsDataOutputStream recovered = writer.recover(restored);
            recovered.write(bytes("more."));
            RecoverableFsDataOutputStream.Committer committer = recovered.closeForCommit();
            boolean cleanedUp = writer.cleanupRecoverableState(later);
            committer.commit();

            assertThat(batchDeletes.applied()).as("DeleteObjects refused").isPositive();
            assertThat(singleDeletes.applied()).as("DeleteObject refused").isPositive();
            assertThat(cleanedUp)
                    .as("clean-up of a tail the server refused to delete")
                    .isFalse();
            String key = target.toUri().getPath().substring(1);
            assertThat(s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asUtf8String())
                    .isEqualTo("restored.more.");
            List<CapturedLogs.Event> warnings =
                    logs.events().stream().filter(e -> e.level() == Level.WARN).toList();
            assertThat(warnings).as("warnings of three failed clean-ups").hasSize(1);
            assertThat(warnings.get(0).text()).contains("the data is safe", "AccessDenied");
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
