package dev.flinks3.it.answers;

import static dev.flinks3.it.answers.RewrittenAnswersServer.key;
import static dev.flinks3.it.answers.RewrittenAnswersServer.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.RequestKind;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.junit.jupiter.api.Test;

/**
 * Issue 23, listings the filesystem checks instead of trusting: a server that answers {@code
 * prefix=chk-1/} with keys of {@code chk-10/} (reported of SeaweedFS), and one that marks a page
 * truncated without a continuation token (reported of Huawei OBS and some Ceph builds). Each answer is
 * S3Proxy's real one, rewritten by the server's {@link AnswerRewriteFilter}.
 */
class ListingAnswersTest extends AnswersFileSystemTest {

    ListingAnswersTest() {
        super(Map.of());
    }

    /** Adds the keys (or, for a listing with delimiter, the prefix) of {@code foreign} to listings of {@code asked}. */
    private AnswerRewriteFilter.Rule addForeignEntries(String asked, String foreign, String... foreignKeys) {
        return server.answers()
                .rewrite(
                        RequestKind.LIST_OBJECTS_V2,
                        request -> asked.equals(request.getParameter("prefix")),
                        AnswerRewriteFilter.ALWAYS,
                        (request, served) -> {
                            StringBuilder extra = new StringBuilder();
                            if (request.getParameter("delimiter") != null) {
                                extra.append("<CommonPrefixes><Prefix>")
                                        .append(foreign)
                                        .append("</Prefix></CommonPrefixes>");
                            } else {
                                for (String key : foreignKeys) {
                                    extra.append("<Contents><Key>")
                                            .append(key)
                                            .append("</Key><LastModified>2026-12-01T00:00:00.000Z</LastModified>")
                                            .append("<ETag>&quot;0cc175b9c0f1b6a831c399e269772661&quot;</ETag>")
                                            .append("<Size>1</Size><StorageClass>STANDARD</StorageClass></Contents>");
                                }
                            }
                            return served.withText(
                                    served.text().replace("</ListBucketResult>", extra + "</ListBucketResult>"));
                        });
    }

    @Test
    void keysOutsideTheAskedPrefixAreNeitherListedNorDeletedNorRenamed() throws Exception {
        byte[] one = "1".getBytes(StandardCharsets.UTF_8);
        write(fs, path("chk-1/_metadata"), one, WriteMode.NO_OVERWRITE);
        write(fs, path("chk-10/_metadata"), one, WriteMode.NO_OVERWRITE);
        write(fs, path("chk-10/shared/state"), one, WriteMode.NO_OVERWRITE);
        String chk1 = base + "/chk-1/";
        AnswerRewriteFilter.Rule foreign =
                addForeignEntries(chk1, base + "/chk-10/", base + "/chk-10/_metadata", base + "/chk-10/shared/state");

        FileStatus[] listed = fs.listStatus(path("chk-1"));
        assertThat(Arrays.stream(listed).map(s -> s.getPath().getName()))
                .as("entries of %s", path("chk-1"))
                .containsExactly("_metadata");

        assertThat(fs.delete(path("chk-1"), true)).isTrue();
        assertThat(foreign.applied()).as("listings answered with foreign keys").isPositive();
        assertThat(server.s3()
                        .listObjectsV2(
                                b -> b.bucket(RewrittenAnswersServer.BUCKET).prefix(base + "/chk-10/"))
                        .contents())
                .as("objects of the newer checkpoint chk-10 after delete(chk-1, true)")
                .hasSize(2);
        assertThat(fs.exists(path("chk-1/_metadata"))).isFalse();

        write(fs, path("chk-1/_metadata"), one, WriteMode.NO_OVERWRITE);
        assertThat(fs.rename(path("chk-1"), path("moved"))).isTrue();
        assertThat(server.s3()
                        .listObjectsV2(
                                b -> b.bucket(RewrittenAnswersServer.BUCKET).prefix(base + "/moved/"))
                        .contents())
                .extracting(o -> o.key())
                .containsExactly(base + "/moved/_metadata");
        assertThat(server.s3()
                        .listObjectsV2(
                                b -> b.bucket(RewrittenAnswersServer.BUCKET).prefix(base + "/chk-10/"))
                        .contents())
                .as("objects of chk-10 after rename(chk-1, moved)")
                .hasSize(2);
    }

    /** Removes the continuation token of every truncated page. */
    private AnswerRewriteFilter.Rule dropContinuationTokens(String asked) {
        return server.answers()
                .rewrite(
                        RequestKind.LIST_OBJECTS_V2,
                        request -> asked.equals(request.getParameter("prefix")),
                        AnswerRewriteFilter.ALWAYS,
                        (request, served) -> served.withText(
                                served.text().replaceAll("<NextContinuationToken>[^<]*</NextContinuationToken>", "")));
    }

    @Test
    void aTruncatedPageWithoutContinuationTokenIsContinuedAfterItsLastKey() throws Exception {
        String dir = base + "/big/";
        int files = 2_300;
        for (int i = 0; i < files; i++) {
            server.server()
                    .putObjectDirectly(RewrittenAnswersServer.BUCKET, dir + String.format("f-%05d", i), new byte[1]);
        }
        for (int i = 0; i < 3; i++) {
            server.server().putObjectDirectly(RewrittenAnswersServer.BUCKET, dir + "sub-" + i + "/x", new byte[1]);
        }
        AnswerRewriteFilter.Rule tokenless = dropContinuationTokens(dir);

        assertThat(fs.listStatus(path("big"))).as("entries of %s", path("big")).hasSize(files + 3);
        assertThat(fs.delete(path("big"), true)).isTrue();
        assertThat(tokenless.applied()).isGreaterThan(2);
        assertThat(server.s3()
                        .listObjectsV2(
                                b -> b.bucket(RewrittenAnswersServer.BUCKET).prefix(dir))
                        .contents())
                .as("objects left after delete(big, true) returned true")
                .isEmpty();
    }

    @Test
    void aTruncatedPageThatNeverMovesOnFailsNamingTheServer() throws Exception {
        String dir = base + "/stuck/";
        for (int i = 0; i < 1_005; i++) {
            server.server()
                    .putObjectDirectly(RewrittenAnswersServer.BUCKET, dir + String.format("f-%05d", i), new byte[1]);
        }
        // A server that ignores start-after too: every answer is the first page, truncated, without token.
        AtomicReference<AnswerRewriteFilter.Answer> firstPage = new AtomicReference<>();
        server.answers()
                .rewrite(
                        RequestKind.LIST_OBJECTS_V2,
                        request -> dir.equals(request.getParameter("prefix")),
                        AnswerRewriteFilter.ALWAYS,
                        (request, served) -> firstPage.updateAndGet(page -> page != null
                                ? page
                                : served.withText(served.text()
                                        .replaceAll("<NextContinuationToken>[^<]*</NextContinuationToken>", ""))));

        Throwable failure = catchThrowable(() -> fs.delete(path("stuck"), true));

        assertThat(failure)
                .isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("truncated")
                .hasMessageContaining("continuation token");
    }
}
