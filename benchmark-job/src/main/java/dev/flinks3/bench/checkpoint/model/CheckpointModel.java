package dev.flinks3.bench.checkpoint.model;

/**
 * Predicts how long a run's checkpoints take on a store from what the plugin asked of it ({@link
 * CheckpointWork}) and what the store charges ({@link StoreProperties}).
 *
 * <p>A checkpoint's duration is its synchronous part (snapshot, barrier delay and alignment, which the store
 * does not decide) plus the longest of four lower bounds on its uploads:
 *
 * <ul>
 *   <li><b>concurrency</b>: every request costs the store's latency and its body's bytes at one connection's
 *       rate; the plugin keeps {@code c} requests in flight on average (its concurrency, calibrated on a run
 *       with latency by Little's law), so the requests take {@code (N * latency + bytes / rate) / c};
 *   <li><b>dependent requests</b>: within one subtask, a file's upload is a chain of round trips (one for a
 *       PutObject; create, the parts side by side and complete for a multipart upload), RocksDB uploads
 *       {@code transferThreads} files at a time and writes its metadata stream after them, and each existence
 *       check or listing waits for its answer; each round trip costs the latency, and the subtask's bytes flow
 *       at most at its share of the aggregate rate and at one connection's rate per file in flight;
 *   <li><b>aggregate bandwidth</b>: all bytes through the store's shared rate;
 *   <li><b>request rate</b>: the write requests at the store's per-prefix limit (one prefix: the checkpoint
 *       directory, without entropy injection).
 * </ul>
 *
 * The model leaves out what it costs the client and the server to make and answer a request (CPU): on a store
 * without latency or bandwidth limits it predicts the synchronous part only. Stateless.
 */
public final class CheckpointModel {

    /** Round trips of a multipart upload whose parts go side by side: create, the parts, complete. */
    static final int MULTIPART_ROUND_TRIPS = 3;

    private CheckpointModel() {}

    /**
     * The requests in flight on average while {@code work}'s run uploaded on {@code store}: the time its
     * requests cost one after another, divided by the time the checkpoints' uploads took.
     *
     * @throws IllegalArgumentException if the store is free (nothing to divide) or the run spent no time
     *     outside its synchronous parts
     */
    public static double concurrency(CheckpointWork work, StoreProperties store) {
        if (store.free()) {
            throw new IllegalArgumentException("the concurrency of " + work.plugin() + " cannot be calibrated on "
                    + store.name() + ": a store without latency or bandwidth limit costs nothing per request");
        }
        double uploads = work.measuredSeconds() - work.syncSeconds();
        if (!(uploads > 0)) {
            throw new IllegalArgumentException("the checkpoints of " + work.plugin() + " spent no time uploading ("
                    + work.measuredSeconds() + " s end to end, " + work.syncSeconds() + " s synchronous)");
        }
        return requestSeconds(work, store) / uploads;
    }

    /**
     * The predicted duration of {@code work}'s checkpoints on {@code store}, summed over them.
     *
     * @param concurrency the plugin's requests in flight, from {@link #concurrency} on a calibration run at the
     *     same parallelism
     * @throws IllegalArgumentException if the concurrency is not positive
     */
    public static Prediction predict(CheckpointWork work, StoreProperties store, double concurrency) {
        if (!(concurrency > 0)) {
            throw new IllegalArgumentException("concurrency must be positive, was " + concurrency);
        }
        double inFlight = requestSeconds(work, store) / concurrency;
        double dependent = dependentSeconds(work, store);
        double aggregate = store.aggregateBytesPerSecond() > 0 ? work.bytes() / store.aggregateBytesPerSecond() : 0;
        double rate = store.writeRequestsPerSecond() > 0 ? work.writeRequests() / store.writeRequestsPerSecond() : 0;
        return new Prediction(work.syncSeconds(), inFlight, dependent, aggregate, rate);
    }

    /** Every request's latency and every byte at one connection's rate, one after another, in s. */
    static double requestSeconds(CheckpointWork work, StoreProperties store) {
        double bytes = store.connectionBytesPerSecond() > 0 ? work.bytes() / store.connectionBytesPerSecond() : 0;
        return work.requests() * store.latencySeconds() + bytes;
    }

    /** The longest chain of round trips per subtask and checkpoint, and the subtask's bytes at its rate, in s. */
    static double dependentSeconds(CheckpointWork work, StoreProperties store) {
        double files = work.files();
        if (files == 0) {
            return 0;
        }
        double perSubtask = (double) work.checkpoints() * work.parallelism();
        double roundTripsPerFile = (work.putObjects() + MULTIPART_ROUND_TRIPS * work.multipartUploads()) / files;
        double filesPerSubtask = files / perSubtask;
        // One of a subtask's files is its metadata stream, written after the others.
        double waves = Math.max(1, Math.ceil((filesPerSubtask - 1) / work.transferThreads()));
        double lookupsPerSubtask = work.lookups() / perSubtask;
        double roundTrips = 1 + waves * roundTripsPerFile + lookupsPerSubtask;
        double rate = Double.POSITIVE_INFINITY;
        if (store.aggregateBytesPerSecond() > 0) {
            rate = store.aggregateBytesPerSecond() / work.parallelism();
        }
        if (store.connectionBytesPerSecond() > 0) {
            double inFlight = Math.min(work.transferThreads(), Math.max(1, filesPerSubtask));
            rate = Math.min(rate, store.connectionBytesPerSecond() * inFlight);
        }
        double bytes = Double.isInfinite(rate) ? 0 : work.bytes() / work.parallelism() / rate;
        return work.checkpoints() * roundTrips * store.latencySeconds() + bytes;
    }

    /**
     * A prediction's terms, each summed over the checkpoints, in seconds.
     *
     * @param syncSeconds the synchronous parts (taken from the run, not predicted)
     * @param concurrencySeconds the requests' cost at the plugin's concurrency
     * @param dependentSeconds the chains of round trips within a subtask
     * @param aggregateSeconds the bytes at the store's shared rate
     * @param requestRateSeconds the write requests at the store's per-prefix limit
     */
    public record Prediction(
            double syncSeconds,
            double concurrencySeconds,
            double dependentSeconds,
            double aggregateSeconds,
            double requestRateSeconds) {

        /** The synchronous parts plus the longest of the upload bounds, in s. */
        public double seconds() {
            return syncSeconds
                    + Math.max(
                            Math.max(concurrencySeconds, dependentSeconds),
                            Math.max(aggregateSeconds, requestRateSeconds));
        }

        /** The name of the bound that decides the uploads' time. */
        public String decidingBound() {
            double longest = Math.max(
                    Math.max(concurrencySeconds, dependentSeconds), Math.max(aggregateSeconds, requestRateSeconds));
            if (longest == 0) {
                return "none";
            }
            if (longest == concurrencySeconds) {
                return "concurrency";
            }
            if (longest == dependentSeconds) {
                return "dependent requests";
            }
            return longest == aggregateSeconds ? "aggregate bandwidth" : "request rate";
        }
    }
}
