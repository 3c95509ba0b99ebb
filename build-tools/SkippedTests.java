import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Prints every test Surefire or Failsafe reported skipped in one module, with its reason, so a skip is seen in
 * Maven's output rather than only in the XML reports. Run by the root pom's {@code print-skipped-tests}
 * execution after the module's tests, as a single-file source program (no build of its own):
 *
 * <pre>java build-tools/SkippedTests.java &lt;module&gt;/target</pre>
 *
 * Prints nothing when nothing was skipped; always exits 0 (a skip is not a failure here: tests that must
 * not skip in CI fail there themselves).
 */
public final class SkippedTests {

    private SkippedTests() {}

    public static void main(String[] args) throws Exception {
        Path target = Path.of(args.length > 0 ? args[0] : "target");
        List<String> skipped = new ArrayList<>();
        for (String reports : new String[] {"surefire-reports", "failsafe-reports"}) {
            Path dir = target.resolve(reports);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "TEST-*.xml")) {
                for (Path file : files) {
                    skipped.addAll(skippedIn(file));
                }
            }
        }
        if (skipped.isEmpty()) {
            return;
        }
        skipped.sort(null);
        StringBuilder out = new StringBuilder();
        out.append("[WARNING] ").append(skipped.size()).append(" test(s) skipped in ").append(target.toAbsolutePath().getParent().getFileName()).append(":\n");
        for (String line : skipped) {
            out.append("[WARNING]   ").append(line).append('\n');
        }
        System.out.print(out);
    }

    private static List<String> skippedIn(Path file) throws IOException {
        List<String> skipped = new ArrayList<>();
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            NodeList cases = factory.newDocumentBuilder().parse(file.toFile()).getElementsByTagName("testcase");
            for (int i = 0; i < cases.getLength(); i++) {
                Element testCase = (Element) cases.item(i);
                NodeList marks = testCase.getElementsByTagName("skipped");
                if (marks.getLength() == 0) {
                    continue;
                }
                Element mark = (Element) marks.item(0);
                // @Disabled and conditions give a message; an aborted assumption's reason is the first line of
                // the exception it threw, which is the element's text.
                String reason = mark.getAttribute("message").strip();
                if (reason.isEmpty()) {
                    reason = mark.getTextContent()
                            .strip()
                            .replaceFirst("^org\\.opentest4j\\.TestAbortedException: ", "")
                            .replaceFirst("^Assumption failed: ", "");
                }
                int newline = reason.indexOf('\n');
                String firstLine = newline < 0 ? reason : reason.substring(0, newline) + " ...";
                skipped.add(testCase.getAttribute("classname") + "." + testCase.getAttribute("name") + ": "
                        + (firstLine.isEmpty() ? "(no reason given)" : firstLine));
            }
        } catch (Exception e) {
            skipped.add(file.getFileName() + ": unreadable report (" + e + ")");
        }
        return skipped;
    }
}
