package dev.flinks3.doctor;

import dev.flinks3.fs.S3ConfigOptions;
import dev.flinks3.transfer.HttpProxy;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.sdk.TrustedCertificates;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.URI;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The way to the store: every address DNS gives for the endpoint, the proxy the plugin would use, the TLS chain
 * the server shows checked against the JVM's CAs and {@code s3.ssl.ca-file}, and the server's clock against ours
 * (SigV4 signatures are refused beyond 15 minutes of skew: {@code RequestTimeTooSkewed}), from the {@code Date}
 * header of an unsigned request.
 */
final class NetworkChecks {

    static final String SECTION = "network";
    /** S3 refuses SigV4 requests whose time differs from its own by more than 15 minutes. */
    static final Duration SKEW_LIMIT = Duration.ofMinutes(15);
    /** Skew above this gets a warning: the clock drifts towards the limit. */
    static final Duration SKEW_WARNING = Duration.ofMinutes(1);

    private NetworkChecks() {}

    /** The endpoint the plugin sends to: {@code s3.endpoint}, or AWS's regional endpoint. */
    static URI endpoint(S3Settings settings) {
        URI endpoint = settings.client().endpoint();
        if (endpoint != null) {
            return endpoint;
        }
        String region = Optional.ofNullable(settings.client().region()).orElse("us-east-1");
        return URI.create("https://s3." + region + ".amazonaws.com");
    }

    static void run(Report report, S3Settings settings) {
        URI endpoint = endpoint(settings);
        try {
            List<String> addresses = new ArrayList<>();
            for (InetAddress address : InetAddress.getAllByName(endpoint.getHost())) {
                addresses.add(address.getHostAddress());
            }
            report.add(Check.ok(SECTION, "dns", endpoint.getHost() + " -> " + addresses));
        } catch (UnknownHostException e) {
            report.add(Check.failure(
                    SECTION,
                    "dns",
                    endpoint.getHost() + " does not resolve",
                    "check " + S3ConfigOptions.ENDPOINT.key() + " (and " + S3ConfigOptions.PATH_STYLE_ACCESS.key()
                            + ": a virtual-host name is <bucket>.<host>)"));
            return;
        }
        HttpProxy proxy = settings.client().proxy();
        report.add(Check.ok(
                SECTION,
                "proxy",
                proxy == null
                        ? "none (direct)"
                        : "through " + proxy.host() + ":" + proxy.port()
                                + (proxy.username() == null ? "" : " as " + proxy.username())));
        Optional<SSLContext> tls = Optional.empty();
        if ("https".equalsIgnoreCase(endpoint.getScheme())) {
            try {
                tls = Optional.of(sslContext(settings));
            } catch (GeneralSecurityException | IOException | RuntimeException e) {
                report.add(Check.failure(
                        SECTION,
                        "tls",
                        "cannot load the trusted CAs: " + e,
                        "check " + S3ConfigOptions.SSL_CA_FILE.key()));
                return;
            }
        }
        try {
            HttpURLConnection connection = (HttpURLConnection) endpoint.resolve("/")
                    .toURL()
                    .openConnection(
                            proxy == null
                                    ? Proxy.NO_PROXY
                                    : new Proxy(Proxy.Type.HTTP, new InetSocketAddress(proxy.host(), proxy.port())));
            connection.setConnectTimeout(10_000);
            connection.setReadTimeout(10_000);
            connection.setRequestMethod("HEAD");
            if (connection instanceof HttpsURLConnection && tls.isPresent()) {
                ((HttpsURLConnection) connection).setSSLSocketFactory(tls.get().getSocketFactory());
            }
            Instant sent = Instant.now();
            int status = connection.getResponseCode();
            Instant received = Instant.now();
            if (connection instanceof HttpsURLConnection) {
                report.add(Check.ok(
                        SECTION,
                        "tls",
                        chain(((HttpsURLConnection) connection).getServerCertificates())
                                + (settings.client().sslCaFile() == null
                                        ? ""
                                        : "; trusted with " + S3ConfigOptions.SSL_CA_FILE.key())));
            } else {
                report.add(Check.ok(SECTION, "tls", "none: plain HTTP to " + endpoint));
            }
            clock(report, connection.getHeaderField("Date"), sent, received, status);
            connection.disconnect();
        } catch (javax.net.ssl.SSLException e) {
            report.add(Check.failure(
                    SECTION,
                    "tls",
                    "the TLS handshake with " + endpoint.getHost() + " failed: " + e.getMessage(),
                    "a private CA: give its certificate in PEM with " + S3ConfigOptions.SSL_CA_FILE.key()));
        } catch (IOException e) {
            report.add(Check.failure(
                    SECTION,
                    "connect",
                    "no answer from " + endpoint + ": " + e,
                    "check " + S3ConfigOptions.ENDPOINT.key()
                            + ", the network path (security groups, NetworkPolicy) and s3.proxy.*"));
        }
    }

    private static void clock(Report report, String date, Instant sent, Instant received, int status) {
        if (date == null) {
            report.add(Check.warning(
                    SECTION,
                    "clock",
                    "the server's answer (" + status + ") has no Date header",
                    "none; nothing to compare"));
            return;
        }
        Instant server =
                ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        Instant ours = sent.plus(Duration.between(sent, received).dividedBy(2));
        Duration skew = Duration.between(ours, server).abs();
        String detail = "the server's clock is " + skew.toSeconds() + " s "
                + (server.isAfter(ours) ? "ahead of" : "behind") + " ours (Date: " + date + ")";
        if (skew.compareTo(SKEW_LIMIT) > 0) {
            report.add(Check.failure(
                    SECTION,
                    "clock",
                    detail + ": signed requests are refused beyond 15 min (RequestTimeTooSkewed)",
                    "synchronise this machine's clock (NTP, chrony) or the server's"));
        } else if (skew.compareTo(SKEW_WARNING) > 0) {
            report.add(
                    Check.warning(SECTION, "clock", detail, "synchronise the clocks (NTP) before they reach 15 min"));
        } else {
            report.add(Check.ok(SECTION, "clock", detail));
        }
    }

    private static String chain(Certificate[] certificates) {
        List<String> names = new ArrayList<>();
        for (Certificate certificate : certificates) {
            if (certificate instanceof X509Certificate) {
                X509Certificate x509 = (X509Certificate) certificate;
                names.add(x509.getSubjectX500Principal().getName() + " (until "
                        + x509.getNotAfter().toInstant() + ")");
            }
        }
        return "chain " + String.join(" <- ", names);
    }

    /** The JVM's default CAs and those of {@code s3.ssl.ca-file}, as the plugin trusts them. */
    private static SSLContext sslContext(S3Settings settings) throws GeneralSecurityException, IOException {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trustManagers(settings), null);
        return context;
    }

    /** Trust managers for the JVM's default CAs and those of {@code s3.ssl.ca-file}. */
    static javax.net.ssl.TrustManager[] trustManagers(S3Settings settings)
            throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        TrustManagerFactory defaults = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        defaults.init((KeyStore) null);
        int n = 0;
        for (javax.net.ssl.TrustManager manager : defaults.getTrustManagers()) {
            if (manager instanceof javax.net.ssl.X509TrustManager) {
                for (X509Certificate ca : ((javax.net.ssl.X509TrustManager) manager).getAcceptedIssuers()) {
                    store.setCertificateEntry("default-" + n++, ca);
                }
            }
        }
        if (settings.client().sslCaFile() != null) {
            for (X509Certificate ca :
                    TrustedCertificates.load(settings.client().sslCaFile()).certificates()) {
                store.setCertificateEntry("configured-" + n++, ca);
            }
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        return trust.getTrustManagers();
    }
}
