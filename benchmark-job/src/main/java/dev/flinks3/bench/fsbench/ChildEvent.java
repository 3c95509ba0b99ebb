package dev.flinks3.bench.fsbench;

import dev.flinks3.bench.common.Json;
import dev.flinks3.bench.fsbench.workloads.FsWorkload;

/**
 * One line a contender JVM sends the benchmark process on standard output, prefixed with
 * {@link #PREFIX}; the benchmark process answers each with {@link #GO} on the contender's standard
 * input. The handshake lets the benchmark process read the S3 server's counters exactly around each
 * timed part.
 *
 * @param type what happened
 * @param workload the workload it concerns, null for {@link Type#LOADED}, {@link Type#FAILED}, {@link Type#END}
 * @param measurement the figures, only for {@link Type#MEASURED}
 * @param text the filesystem class for {@link Type#LOADED}, the verification problem (empty if none)
 *     for {@link Type#VERIFIED}, the failure for {@link Type#FAILED}, empty otherwise
 */
public record ChildEvent(Type type, FsWorkload workload, ClientMeasurement measurement, String text) {

    /** Marks protocol lines among anything else a contender might print. */
    public static final String PREFIX = "FSBENCH ";

    /** The benchmark process's answer to every event. */
    public static final String GO = "GO";

    /** The events, in the order they come for each workload. */
    public enum Type {
        /** The filesystem was created through the plugin manager. */
        LOADED,
        /** The contender could not create the filesystem; nothing else follows. */
        FAILED,
        /** A workload's set-up is done; its timed part starts after the answer. */
        READY,
        /** A workload's timed part is done. */
        MEASURED,
        /** A workload's bytes were checked. */
        VERIFIED,
        /** All workloads are done. */
        END
    }

    public ChildEvent {
        text = text == null ? "" : text;
    }

    static ChildEvent of(Type type, FsWorkload workload) {
        return new ChildEvent(type, workload, null, "");
    }

    /** The protocol line. */
    String encode() {
        return PREFIX + Json.COMPACT.writeValueAsString(this);
    }

    /** The event of a protocol line, or null for any other line. */
    static ChildEvent decode(String line) {
        if (!line.startsWith(PREFIX)) {
            return null;
        }
        return Json.COMPACT.readValue(line.substring(PREFIX.length()), ChildEvent.class);
    }
}
