package dev.flinks3.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The release archive the build made ({@code flinks3-<version>.tar.gz}) holds, under one top folder, the plugin jar
 * the plugin module built in {@code plugins/<folder>/}, a SHA-512 of it that {@code sha512sum -c} accepts, the jar's
 * own LICENSE, NOTICE and THIRD-PARTY.txt, README, CHANGELOG and the docs pages, and the doctor's jar in {@code tools/}. Runs in the integration-test phase, after the archive is built.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReleaseArchiveIT {

    private static final Path ARCHIVE = Path.of(System.getProperty("release.archive"));
    private static final String TOP = System.getProperty("release.name") + "/";
    private static final Path PLUGIN_JAR = Path.of(System.getProperty("plugin.jar"));
    private static final String JAR_ENTRY =
            "plugins/" + System.getProperty("plugin.folder") + "/" + System.getProperty("plugin.jar.name");
    private static final Path REPOSITORY = Path.of(System.getProperty("repository.root"));

    /** Every file of the archive by its path below the top folder. */
    private final Map<String, byte[]> files = new LinkedHashMap<>();

    @BeforeAll
    void readTheArchive() throws IOException {
        try (InputStream in = Files.newInputStream(ARCHIVE);
                TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(in))) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                assertThat(entry.getName())
                        .as("every entry is under the top folder")
                        .startsWith(TOP);
                if (entry.isFile()) {
                    files.put(entry.getName().substring(TOP.length()), tar.readAllBytes());
                }
            }
        }
    }

    @Test
    void holdsThePluginJarThisBuildMadeInItsPluginFolder() throws IOException {
        assertThat(files).containsKey(JAR_ENTRY);
        assertThat(sha512(files.get(JAR_ENTRY))).isEqualTo(sha512(Files.readAllBytes(PLUGIN_JAR)));
        assertThat(files.keySet().stream().filter(name -> name.startsWith("plugins/")))
                .as("one plugin, one jar")
                .containsExactly(JAR_ENTRY);
    }

    @Test
    void theChecksumFileIsTheJarsSha512AsSha512sumReadsIt() {
        String checksumFile = System.getProperty("plugin.jar.name") + ".sha512";
        assertThat(files).containsKey(checksumFile);
        String line = new String(files.get(checksumFile), StandardCharsets.US_ASCII).strip();

        assertThat(line).isEqualTo(sha512(files.get(JAR_ENTRY)) + "  " + JAR_ENTRY);
    }

    @Test
    void licenceNoticeAndThirdPartyListAreTheJarsOwn() throws IOException {
        try (ZipFile jar = new ZipFile(PLUGIN_JAR.toFile())) {
            for (String name : new String[] {"LICENSE", "NOTICE", "THIRD-PARTY.txt"}) {
                ZipEntry entry = jar.getEntry("META-INF/" + name);
                assertThat(entry).as("META-INF/" + name + " of the plugin jar").isNotNull();
                try (InputStream in = jar.getInputStream(entry)) {
                    assertThat(files.get(name)).as(name).isEqualTo(in.readAllBytes());
                }
            }
        }
        assertThat(new String(files.get("LICENSE"), StandardCharsets.UTF_8)).contains("Apache License");
        assertThat(new String(files.get("THIRD-PARTY.txt"), StandardCharsets.UTF_8))
                .contains("software.amazon.awssdk:s3:");
    }

    @Test
    void holdsReadmeChangelogAndEveryDocsPage() throws IOException {
        assertThat(files).containsKeys("README.md", "CHANGELOG.md", "docs/benchmarks/README.md");
        try (var pages = Files.list(REPOSITORY.resolve("docs"))) {
            pages.filter(page -> page.getFileName().toString().endsWith(".md"))
                    .forEach(page -> assertThat(files).containsKey("docs/" + page.getFileName()));
        }
        assertThat(files.keySet().stream().filter(name -> name.startsWith("docs/benchmarks/")))
                .as("the benchmark runs stay in the repository")
                .containsExactly("docs/benchmarks/README.md");
    }

    @Test
    void holdsTheDoctorsJarTheDoctorModuleBuilt() throws IOException {
        Path doctorJar = Path.of(System.getProperty("doctor.jar"));
        String entry = "tools/" + doctorJar.getFileName();
        assertThat(files).containsKey(entry);
        assertThat(sha512(files.get(entry))).isEqualTo(sha512(Files.readAllBytes(doctorJar)));
    }

    private static String sha512(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-512").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-512", e);
        }
    }
}
