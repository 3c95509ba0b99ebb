package dev.flinks3.testserver;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs an {@link EmbeddedS3Server} in its own JVM until the process is stopped, so a benchmark's
 * server CPU is not charged to the client:
 *
 * <pre>java -cp ... dev.flinks3.testserver.S3ServerMain --port 9000 --dir /tmp/s3 --profile wan --bucket b</pre>
 *
 * <p>Once listening it prints one line {@code S3_SERVER_READY <endpoint>} on standard output, for a
 * parent process to wait on. {@code --bucket} may repeat; {@code --faults 0.03} injects random faults
 * ({@link FaultProfile#of}); {@code --mode benchmark} keeps objects in memory and accepts signatures
 * unverified ({@link ServerMode}). The server keeps request counts only
 * (memory stays flat over a long run); {@code GET <endpoint>/__flinks3/requests} returns them (a
 * {@link RequestSummary}: requests, serve time and bytes sent per operation) and {@code DELETE} on
 * that path resets them. They are also printed when the process stops.
 */
public final class S3ServerMain {

    /** The line prefix printed when the server accepts requests. */
    public static final String READY = "S3_SERVER_READY";

    private S3ServerMain() {}

    public static void main(String[] args) throws Exception {
        EmbeddedS3Server.Builder builder = EmbeddedS3Server.builder().keepRequestEntries(false);
        List<String> buckets = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (i + 1 >= args.length) {
                throw usage("missing value for " + option);
            }
            String value = args[++i];
            switch (option) {
                case "--port" -> builder.port(Integer.parseInt(value));
                case "--dir" -> builder.baseDir(Path.of(value));
                case "--profile" -> builder.profile(NetworkProfile.named(value));
                case "--bucket" -> buckets.add(value);
                case "--mode" -> builder.mode(ServerMode.named(value));
                case "--faults" -> builder.faultProfile(FaultProfile.of(Double.parseDouble(value)));
                default -> throw usage("unknown option " + option);
            }
        }
        builder.bucket(buckets.toArray(String[]::new));
        EmbeddedS3Server server = builder.start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                System.out.print(server.requestLog().summary().render());
                                server.close();
                            } catch (Exception e) {
                                e.printStackTrace();
                            } finally {
                                stopped.countDown();
                            }
                        },
                        "s3-server-shutdown"));
        System.out.println(READY + " " + server.endpoint() + " profile=" + server.profile() + " mode=" + server.mode());
        System.out.flush();
        stopped.await();
    }

    private static IllegalArgumentException usage(String problem) {
        return new IllegalArgumentException(
                problem
                        + "; usage: S3ServerMain [--port N] [--dir PATH] [--profile lan|wan|rescale] [--bucket NAME]... [--faults RATE] [--mode full|benchmark]");
    }
}
