package dev.flinks3.transfer.sdk;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * The certificates of a CA file (PEM, one or more {@code -----BEGIN CERTIFICATE-----} blocks) that TLS
 * connections to the endpoint trust instead of the default CAs, in the forms both HTTP clients take:
 * trust managers for Netty, PEM text for the CRT client. Immutable.
 */
public final class TrustedCertificates {

    private final Path file;
    private final List<X509Certificate> certificates;

    private TrustedCertificates(Path file, List<X509Certificate> certificates) {
        this.file = file;
        this.certificates = List.copyOf(certificates);
    }

    /**
     * Reads and parses the file.
     *
     * @throws IllegalArgumentException naming the file if it cannot be read or holds no X.509
     *     certificate in PEM (or DER) form
     */
    public static TrustedCertificates load(Path file) {
        List<X509Certificate> certificates = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            for (Certificate certificate :
                    CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                certificates.add((X509Certificate) certificate);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the CA file " + file + ": " + e, e);
        } catch (CertificateException e) {
            throw new IllegalArgumentException(
                    "the CA file " + file + " holds no valid PEM certificate: " + e.getMessage(), e);
        }
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException("the CA file " + file + " holds no certificate"
                    + " (expected PEM blocks -----BEGIN CERTIFICATE-----)");
        }
        return new TrustedCertificates(file, certificates);
    }

    /** The certificates, in file order. */
    public List<X509Certificate> certificates() {
        return certificates;
    }

    /** Trust managers that trust exactly these certificates (and what they signed). */
    TrustManager[] trustManagers() {
        try {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            for (int i = 0; i < certificates.size(); i++) {
                store.setCertificateEntry("ca-" + i, certificates.get(i));
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            return factory.getTrustManagers();
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build trust managers from " + file, e);
        }
    }

    /** The certificates as PEM text. */
    public String pem() {
        StringBuilder pem = new StringBuilder();
        Base64.Encoder base64 = Base64.getMimeEncoder(64, new byte[] {'\n'});
        for (X509Certificate certificate : certificates) {
            try {
                pem.append("-----BEGIN CERTIFICATE-----\n")
                        .append(base64.encodeToString(certificate.getEncoded()))
                        .append("\n-----END CERTIFICATE-----\n");
            } catch (CertificateException e) {
                throw new IllegalStateException("cannot encode a certificate of " + file, e);
            }
        }
        return pem.toString();
    }

    @Override
    public String toString() {
        return file + " (" + certificates.size() + " certificate" + (certificates.size() == 1 ? "" : "s") + ")";
    }
}
