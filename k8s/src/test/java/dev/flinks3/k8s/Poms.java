package dev.flinks3.k8s;

import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;
import org.w3c.dom.Document;

/** Reads single values from the repository's Maven poms, e.g. a module's artifactId or finalName. */
final class Poms {

    private Poms() {}

    /**
     * @param module the module folder, e.g. {@code benchmark-job}
     * @param xpath e.g. {@code /project/artifactId}
     * @return the trimmed text, empty if the element is absent
     */
    static String value(String module, String xpath) {
        Path pom = ModuleFiles.REPOSITORY.resolve(module).resolve("pom.xml");
        try {
            Document document =
                    DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
            return XPathFactory.newInstance()
                    .newXPath()
                    .evaluate(xpath, document)
                    .trim();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + xpath + " from " + pom, e);
        }
    }
}
