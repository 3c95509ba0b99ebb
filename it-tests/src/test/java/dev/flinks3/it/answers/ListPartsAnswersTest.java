package dev.flinks3.it.answers;

import static dev.flinks3.it.answers.RewrittenAnswersServer.randomBytes;
import static dev.flinks3.it.answers.RewrittenAnswersServer.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.flinks3.testserver.AnswerRewriteFilter;
import dev.flinks3.testserver.RequestKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.core.fs.Path;
import org.apache.flink.core.fs.RecoverableFsDataOutputStream;
import org.apache.flink.core.fs.RecoverableWriter;
import org.junit.jupiter.api.Test;

/**
 * Issue 45, a server that lists the parts of an upload in pages without saying so: its ListParts answer holds a
 * full page (as many parts as its MaxParts) marked complete, with no NextPartNumberMarker, while parts remain.
 * A FileSink stream resumed from a persist checks its recorded parts against that listing: the listing asks
 * again after the page's last part and the stream resumes and commits; where the server also ignores the
 * marker, the resume fails saying that the server's listing is at fault, not that a part is missing.
 */
class ListPartsAnswersTest extends AnswersFileSystemTest {

    private static final int MIB = 1024 * 1024;
    private static final int PAGE = 2;
    private static final Pattern PART = Pattern.compile("<Part>.*?</Part>", Pattern.DOTALL);
    private static final Pattern PART_NUMBER = Pattern.compile("<PartNumber>(\\d+)</PartNumber>");

    ListPartsAnswersTest() {
        super(Map.of("s3.upload.min.part.size", "5mb"));
    }

    @Test
    void aFullPageMarkedCompleteIsListedOnAndTheStreamResumes() throws Exception {
        AtomicReference<String> whole = new AtomicReference<>();
        AnswerRewriteFilter.Rule firstPages = server.answers()
                .rewrite(
                        RequestKind.LIST_PARTS,
                        request -> request.getParameter("part-number-marker") == null,
                        AnswerRewriteFilter.ALWAYS,
                        (request, served) -> {
                            whole.set(served.text());
                            return served.withText(firstPageMarkedComplete(served.text()));
                        });
        // S3Proxy implements no part-number-marker (it answers 501): the page after it is made here, from
        // S3Proxy's whole listing.
        server.answers()
                .rewrite(
                        RequestKind.LIST_PARTS,
                        request -> request.getParameter("part-number-marker") != null,
                        AnswerRewriteFilter.ALWAYS,
                        (request, served) -> new AnswerRewriteFilter.Answer(
                                200,
                                bytes(partsAfter(
                                        whole.get(), Integer.parseInt(request.getParameter("part-number-marker"))))));
        Path target = path("paged/part-0-0");
        byte[] before = randomBytes(16 * MIB, 1);
        byte[] after = randomBytes(3 * MIB, 2);

        RecoverableWriter writer = fs.createRecoverableWriter();
        RecoverableFsDataOutputStream out = writer.open(target);
        out.write(before);
        RecoverableWriter.ResumeRecoverable persisted = out.persist();
        out.close(); // as the failed task does, giving its buffers back to the process's budget
        RecoverableFsDataOutputStream resumed = writer.recover(persisted);
        resumed.write(after);
        resumed.closeForCommit().commit();

        assertThat(firstPages.applied()).as("first pages cut by the server").isPositive();
        assertThat(read(fs, target)).isEqualTo(concat(before, after));
    }

    @Test
    void aServerThatIgnoresThePartNumberMarkerFailsTheResumeNamingItsListing() throws Exception {
        AtomicReference<String> firstPage = new AtomicReference<>();
        server.answers()
                .rewrite(
                        RequestKind.LIST_PARTS,
                        request -> request.getParameter("part-number-marker") == null,
                        AnswerRewriteFilter.ALWAYS,
                        (request, served) -> {
                            firstPage.set(firstPageMarkedComplete(served.text()));
                            return served.withText(firstPage.get());
                        });
        // The server ignores the marker: the same first page again.
        server.answers()
                .rewrite(
                        RequestKind.LIST_PARTS,
                        request -> request.getParameter("part-number-marker") != null,
                        AnswerRewriteFilter.ALWAYS,
                        (request, served) -> new AnswerRewriteFilter.Answer(200, bytes(firstPage.get())));
        Path target = path("ignored/part-0-0");

        RecoverableWriter writer = fs.createRecoverableWriter();
        RecoverableFsDataOutputStream out = writer.open(target);
        out.write(randomBytes(16 * MIB, 3));
        RecoverableWriter.ResumeRecoverable persisted = out.persist();
        out.close();

        Throwable failure = catchThrowable(() -> writer.recover(persisted));

        assertThat(failure)
                .isInstanceOf(IOException.class)
                .hasMessageContaining("ListParts")
                .hasMessageContaining("the server's listing of parts is at fault")
                .hasMessageNotContaining("missing");
    }

    /**
     * The answer to a ListParts without a marker as a server that pages silently sends it: the first {@value
     * #PAGE} parts, MaxParts {@value #PAGE}, marked complete, no next marker. Any marker the server ignores too.
     */
    private static String firstPageMarkedComplete(String listing) {
        StringBuilder cut = new StringBuilder();
        Matcher part = PART.matcher(listing);
        int kept = 0;
        int from = 0;
        while (part.find()) {
            cut.append(listing, from, part.start());
            if (kept++ < PAGE) {
                cut.append(part.group());
            }
            from = part.end();
        }
        cut.append(listing.substring(from));
        return cut.toString()
                .replaceAll("<MaxParts>\\d+</MaxParts>", "<MaxParts>" + PAGE + "</MaxParts>")
                .replaceAll("<IsTruncated>[a-z]+</IsTruncated>", "<IsTruncated>false</IsTruncated>")
                .replaceAll("<NextPartNumberMarker>\\d*</NextPartNumberMarker>", "")
                .replaceAll("<PartNumberMarker>\\d*</PartNumberMarker>", "");
    }

    /** The whole listing's parts after part {@code marker}, marked complete. */
    private static String partsAfter(String listing, int marker) {
        StringBuilder after = new StringBuilder();
        Matcher part = PART.matcher(listing);
        int from = 0;
        while (part.find()) {
            after.append(listing, from, part.start());
            Matcher number = PART_NUMBER.matcher(part.group());
            if (number.find() && Integer.parseInt(number.group(1)) > marker) {
                after.append(part.group());
            }
            from = part.end();
        }
        after.append(listing.substring(from));
        return after.toString().replaceAll("<IsTruncated>[a-z]+</IsTruncated>", "<IsTruncated>false</IsTruncated>");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
