package dev.flinks3.testserver;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A private CA and a server certificate it signed for {@code 127.0.0.1} and {@code localhost}, made
 * with the JDK's {@code keytool} in a directory of the caller's: what an S3 store on a private network
 * presents. Files: {@link #caPem()} (the CA certificate, PEM), {@link #serverKeyStore()} (PKCS12 with
 * the server's key and chain, for {@link EmbeddedS3Server.Builder#tls}), {@link #trustStore()} (PKCS12
 * holding only the CA, for {@code javax.net.ssl.trustStore}), all with password {@link #PASSWORD}.
 */
public final class TestCertificates {

    /** Password of both key stores (a test fixture, not a secret). */
    public static final String PASSWORD = "flinks3-test";

    private static final long KEYTOOL_TIMEOUT_S = 60;

    private final Path dir;

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    /**
     * Generates the CA, the server certificate and the stores in {@code dir}.
     *
     * @throws IOException if keytool fails or does not finish within a minute
     */
    public static TestCertificates create(Path dir) throws IOException {
        TestCertificates c = new TestCertificates(Files.createDirectories(dir));
        Path ca = dir.resolve("ca.p12");
        c.keytool(
                "-genkeypair",
                "-keystore",
                ca,
                "-alias",
                "ca",
                "-dname",
                "CN=flinks3 test CA",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "2",
                "-ext",
                "bc:c");
        c.keytool("-exportcert", "-keystore", ca, "-alias", "ca", "-rfc", "-file", c.caPem());
        Path server = c.serverKeyStore();
        Path csr = dir.resolve("server.csr");
        Path signed = dir.resolve("server.pem");
        c.keytool(
                "-genkeypair",
                "-keystore",
                server,
                "-alias",
                "server",
                "-dname",
                "CN=127.0.0.1",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-validity",
                "2");
        c.keytool("-certreq", "-keystore", server, "-alias", "server", "-file", csr);
        c.keytool(
                "-gencert",
                "-keystore",
                ca,
                "-alias",
                "ca",
                "-infile",
                csr,
                "-outfile",
                signed,
                "-rfc",
                "-validity",
                "2",
                "-ext",
                "san=ip:127.0.0.1,dns:localhost",
                "-ext",
                "eku=serverAuth");
        c.keytool("-importcert", "-keystore", server, "-alias", "ca", "-file", c.caPem(), "-noprompt");
        c.keytool("-importcert", "-keystore", server, "-alias", "server", "-file", signed);
        c.keytool("-importcert", "-keystore", c.trustStore(), "-alias", "ca", "-file", c.caPem(), "-noprompt");
        return c;
    }

    /** The CA certificate in PEM. */
    public Path caPem() {
        return dir.resolve("ca.pem");
    }

    /** PKCS12 key store with the server's private key and its chain to the CA. */
    public Path serverKeyStore() {
        return dir.resolve("server.p12");
    }

    /** PKCS12 trust store holding the CA certificate only. */
    public Path trustStore() {
        return dir.resolve("truststore.p12");
    }

    private void keytool(Object... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        for (Object arg : args) {
            command.add(arg.toString());
        }
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            if (!process.waitFor(KEYTOOL_TIMEOUT_S, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("keytool did not finish: " + command);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running keytool", e);
        }
        if (process.exitValue() != 0) {
            throw new IOException("keytool failed (" + process.exitValue() + "): " + command + "\n"
                    + new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
