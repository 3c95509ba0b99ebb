package dev.flinks3.testserver;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What the {@link EmbeddedS3Server} does with each request beyond answering it as S3 would.
 *
 * <p>S3 charges a client nothing for checking its signature or for storing its parts, so a benchmark's
 * server should not either: on a machine where the server shares the cores with the client being
 * measured, a server that spends CPU per request (SigV4 verification, a file and its metadata per part,
 * a copy of the parts on completion) makes a client that sends more, smaller requests look slower than
 * it is on S3. {@link #BENCHMARK} drops that cost; {@link #FULL} keeps S3Proxy's complete behaviour for
 * the tests of faults and behaviour.
 */
public enum ServerMode {
    /**
     * S3Proxy's filesystem backend under a base directory, every request's SigV4 (or V2) signature
     * verified against the fixed keys. The default.
     */
    FULL,

    /**
     * Objects in the server's heap ({@code InMemoryBlobStore}: a part's bytes are stored once, completion
     * joins the parts without copying), signatures accepted unverified (clients still sign). ETags,
     * {@code Content-MD5} checks, ranged GETs, listings and the multipart rules are S3's; the network
     * profile, request log and fault injection apply as in {@link #FULL}.
     */
    BENCHMARK;

    /**
     * The mode a command-line value names, in any case.
     *
     * @throws IllegalArgumentException naming the value and the allowed ones if it names none
     */
    public static ServerMode named(String name) {
        for (ServerMode mode : values()) {
            if (mode.name().equalsIgnoreCase(name)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("server mode must be one of "
                + Arrays.stream(values()).map(ServerMode::toString).collect(Collectors.joining(", "))
                + ", was '" + name + "'");
    }

    /** The command-line name, lower case. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
