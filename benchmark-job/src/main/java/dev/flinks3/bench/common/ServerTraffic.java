package dev.flinks3.bench.common;

import dev.flinks3.testserver.EmbeddedS3Server;
import dev.flinks3.testserver.RequestKind;
import dev.flinks3.testserver.RequestSummary;
import dev.flinks3.testserver.RequestTotals;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;

/**
 * What the benchmark's S3 server did, cumulative up to one moment: its CPU time and its
 * {@link RequestSummary} (requests, serve time and bytes sent in answer bodies, per S3 operation). The
 * fsbench reads it over HTTP from a server in another JVM ({@link #fetch}), the checkpoint benchmark
 * from the server in its own JVM ({@link #of}); the {@link #minus difference} of two readings is
 * what happened in between, e.g. in one workload or one phase of a run.
 *
 * @param cpuNanos CPU time of the server's process, in nanoseconds
 * @param summary the server's request figures
 */
public record ServerTraffic(long cpuNanos, RequestSummary summary) {

    /** Nothing: no CPU time, no requests. */
    public static final ServerTraffic NONE = new ServerTraffic(0, RequestSummary.NONE);

    private static final long NANOS_PER_MILLI = 1_000_000L;
    private static final Duration FETCH_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Reads a server running in this JVM. This JVM's CPU time is taken as the server's: the caller
     * hosts the server and does little else while it is measured.
     */
    public static ServerTraffic of(EmbeddedS3Server server) {
        long cpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        return new ServerTraffic(cpu, server.requestLog().summary());
    }

    /**
     * Reads a server in another JVM from {@code GET <endpoint>}{@value EmbeddedS3Server#REQUEST_SUMMARY_PATH}
     * (a request the server neither counts, delays nor paces).
     *
     * @param endpoint the server's base URI, {@code http://127.0.0.1:<port>}
     * @param cpuNanos the server process's CPU time so far, as the operating system reports it
     * @throws IOException if the server cannot be reached or answers other than 200 with a summary
     */
    public static ServerTraffic fetch(HttpClient http, URI endpoint, long cpuNanos)
            throws IOException, InterruptedException {
        URI uri = endpoint.resolve(EmbeddedS3Server.REQUEST_SUMMARY_PATH);
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(uri).GET().timeout(FETCH_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + uri + " answered " + response.statusCode());
        }
        try {
            return new ServerTraffic(cpuNanos, RequestSummary.parse(response.body()));
        } catch (IllegalArgumentException e) {
            throw new IOException("GET " + uri + " did not answer a request summary: " + e.getMessage(), e);
        }
    }

    /** What happened between {@code earlier} and this reading; operations with nothing counted are left out. */
    public ServerTraffic minus(ServerTraffic earlier) {
        return new ServerTraffic(cpuNanos - earlier.cpuNanos, summary.minus(earlier.summary));
    }

    /** All requests of all operations. */
    public long requests() {
        return summary.total().requests();
    }

    /** Requests per S3 operation name (PutObject, UploadPart, ...); operations without requests are left out. */
    public Map<String, Long> requestsByOperation() {
        return byOperation(RequestTotals::requests);
    }

    /**
     * Per S3 operation name, the summed time from each request's arrival at the server to its answer
     * (emulated latency and pacing included), in ms; operations with none are left out.
     */
    public Map<String, Long> serveMillisByOperation() {
        return byOperation(totals -> totals.serveNanos() / NANOS_PER_MILLI);
    }

    /** The bytes the server sent in the bodies of its answers to one operation, e.g. GetObject's object bytes. */
    public long bytesSent(RequestKind kind) {
        return summary.of(kind).bytesSent();
    }

    private Map<String, Long> byOperation(ToLongFunction<RequestTotals> figure) {
        Map<String, Long> byName = new TreeMap<>();
        summary.byKind().forEach((kind, totals) -> {
            long value = figure.applyAsLong(totals);
            if (value != 0) {
                byName.put(kind.operationName(), value);
            }
        });
        return byName;
    }
}
