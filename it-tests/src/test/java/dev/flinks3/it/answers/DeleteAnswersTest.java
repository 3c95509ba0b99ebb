package dev.flinks3.it.answers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.RequestKind;
import java.io.IOException;
import java.util.Map;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * Issue 23, per-key errors inside a DeleteObjects 200 answer: S3 reports a key it could not delete as an
 * {@code <Error>} entry of the answer while the others are gone. Retryable codes (InternalError, SlowDown,
 * ServiceUnavailable) are sent again for those keys; a final one (AccessDenied) fails naming the key.
 */
class DeleteAnswersTest extends AnswersFileSystemTest {

    DeleteAnswersTest() {
        super(Map.of());
    }

    /**
     * The next {@code times} DeleteObjects answers report {@code key} as not deleted with {@code code}; the
     * key is put back after S3Proxy deleted it, so the store holds what the answer says.
     */
    private AnswerRewriteFilter.Rule failKey(String key, String code, int times) {
        return server.answers().rewrite(RequestKind.DELETE_OBJECTS, request -> true, times, (request, served) -> {
            // S3Proxy did delete the key; put it back so the answer is true to the store's state.
            server.server().putObjectDirectly(RewrittenAnswersServer.BUCKET, key, new byte[1]);
            return served.withText(served.text()
                    .replaceFirst("<DeleteResult([^>]*)/>", "<DeleteResult$1></DeleteResult>")
                    .replace(
                            "</DeleteResult>",
                            "<Error><Key>" + key + "</Key><Code>" + code + "</Code><Message>" + code
                                    + " injected</Message></Error></DeleteResult>"));
        });
    }

    private String prepare(String dir, int files) {
        for (int i = 0; i < files; i++) {
            server.server().putObjectDirectly(RewrittenAnswersServer.BUCKET, dir + "f-" + i, new byte[1]);
        }
        return dir + "f-3";
    }

    private long left(String prefix) {
        return server.s3()
                .listObjectsV2(b -> b.bucket(RewrittenAnswersServer.BUCKET).prefix(prefix))
                .contents()
                .size();
    }

    @Test
    void retryableKeyErrorsAreSentAgainForThoseKeys() throws Exception {
        String dir = base + "/retryable/";
        String key = prepare(dir, 10);
        AnswerRewriteFilter.Rule internal = failKey(key, "InternalError", 1);
        AnswerRewriteFilter.Rule slowDown = failKey(key, "SlowDown", 1);

        assertThat(fs.delete(new Path("s3://" + RewrittenAnswersServer.BUCKET + "/" + dir), true))
                .isTrue();

        assertThat(internal.applied() + slowDown.applied()).isEqualTo(2);
        assertThat(left(dir)).as("objects left under %s", dir).isZero();
    }

    @Test
    void aFinalKeyErrorFailsNamingTheKey() {
        String dir = base + "/final/";
        String key = prepare(dir, 10);
        failKey(key, "AccessDenied", AnswerRewriteFilter.ALWAYS);

        Throwable failure =
                catchThrowable(() -> fs.delete(new Path("s3://" + RewrittenAnswersServer.BUCKET + "/" + dir), true));

        assertThat(failure)
                .isInstanceOf(IOException.class)
                .hasMessageContaining(key)
                .hasMessageContaining("AccessDenied");
        assertThat(left(dir)).as("objects left under %s", dir).isEqualTo(1);
    }
}
