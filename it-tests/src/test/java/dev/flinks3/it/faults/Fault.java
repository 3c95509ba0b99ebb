package dev.flinks3.it.faults;

import dev.flinks3.testserver.S3ErrorAnswer;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * What the {@link FaultInjectingProxy} does to one S3 request instead of (or on top of) forwarding it.
 *
 * <p>Faults {@link #reachesServer() before the server} answer in the server's place or break the
 * connection, so the server never acts; the others forward the request, let the server act, and then
 * spoil the answer. Immutable.
 *
 * @param type what happens
 * @param status the HTTP status of an error answer, 0 otherwise
 * @param errorCode the S3 error code of an error answer, {@code null} otherwise
 * @param message the error answer's message, {@code null} otherwise
 * @param delay how long the answer is held back, {@link Duration#ZERO} otherwise
 */
public record Fault(Type type, int status, String errorCode, String message, Duration delay) {

    /** The kinds of misbehaviour. */
    public enum Type {
        /** An S3 error document instead of the server's answer; the server never sees the request. */
        ERROR_ANSWER(false),
        /** The connection is reset (TCP RST) before any byte of an answer; the server never sees the request. */
        RESET_BEFORE_RESPONSE(false),
        /** One byte of the request body is flipped on its way to the server. */
        CORRUPT_REQUEST_BODY(true),
        /** The server acts; its answer is held back before the first byte. */
        DELAY_FIRST_BYTE(true),
        /** The server acts; its answer is replaced by a connection reset, so the client never learns the outcome. */
        DROP_RESPONSE(true),
        /** The server acts; the connection is reset after the status, the headers and half of the body. */
        RESET_MID_BODY(true),
        /**
         * The server acts; the connection is closed cleanly (FIN) after the status, the headers (with the
         * full Content-Length) and half of the body, as a proxy or load balancer that gives up may do.
         */
        CLOSE_MID_BODY(true),
        /** The server acts; one byte of its answer's body is flipped on the way back. */
        CORRUPT_RESPONSE_BODY(true),
        /**
         * As {@link #CORRUPT_RESPONSE_BODY}, but the answer first gets the CRC32C of the intact body
         * ({@code x-amz-checksum-crc32c}), as from a server that returns checksums on GETs.
         */
        CORRUPT_CHECKSUMMED_RESPONSE_BODY(true);

        private final boolean reachesServer;

        Type(boolean reachesServer) {
            this.reachesServer = reachesServer;
        }
    }

    public Fault {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(delay, "delay");
    }

    /** 500 InternalError, which AWS SDKs retry. */
    public static Fault internalError() {
        return error(500, "InternalError", "We encountered an internal error. Please try again.");
    }

    /** 503 SlowDown, S3's throttling answer. */
    public static Fault slowDown() {
        return error(503, "SlowDown", "Please reduce your request rate.");
    }

    /** 429 TooManyRequests, the throttling answer of several S3-compatible servers. */
    public static Fault tooManyRequests() {
        return error(429, "TooManyRequests", "Too many requests, please slow down.");
    }

    /** Any S3 error answer. */
    public static Fault error(int status, String errorCode, String message) {
        return new Fault(
                Type.ERROR_ANSWER, status, Objects.requireNonNull(errorCode, "errorCode"), message, Duration.ZERO);
    }

    /**
     * An error status with an empty body, so without an S3 error code, as Ceph RGW answers some requests
     * it rejects (for example 400 to an upload in a form it does not take).
     */
    public static Fault emptyAnswer(int status) {
        return new Fault(Type.ERROR_ANSWER, status, null, null, Duration.ZERO);
    }

    public static Fault resetBeforeResponse() {
        return of(Type.RESET_BEFORE_RESPONSE);
    }

    public static Fault corruptRequestBody() {
        return of(Type.CORRUPT_REQUEST_BODY);
    }

    /** The server's answer held back for {@code delay} before its first byte. */
    public static Fault delayFirstByte(Duration delay) {
        return new Fault(Type.DELAY_FIRST_BYTE, 0, null, null, delay);
    }

    public static Fault dropResponse() {
        return of(Type.DROP_RESPONSE);
    }

    public static Fault resetMidBody() {
        return of(Type.RESET_MID_BODY);
    }

    public static Fault closeMidBody() {
        return of(Type.CLOSE_MID_BODY);
    }

    public static Fault corruptResponseBody() {
        return of(Type.CORRUPT_RESPONSE_BODY);
    }

    public static Fault corruptChecksummedResponseBody() {
        return of(Type.CORRUPT_CHECKSUMMED_RESPONSE_BODY);
    }

    private static Fault of(Type type) {
        return new Fault(type, 0, null, null, Duration.ZERO);
    }

    /** Whether the server receives (and acts on) the request. */
    public boolean reachesServer() {
        return type.reachesServer;
    }

    /** The S3 error document of an {@link Type#ERROR_ANSWER}; empty for an {@link #emptyAnswer}. */
    String errorDocument() {
        return errorCode == null ? "" : S3ErrorAnswer.document(errorCode, message, "fault-injected");
    }

    @Override
    public String toString() {
        return switch (type) {
            case ERROR_ANSWER -> status + " " + (errorCode == null ? "with an empty body" : errorCode);
            case DELAY_FIRST_BYTE -> "delay first byte " + delay.toMillis() + " ms";
            default -> type.name().toLowerCase(Locale.ROOT).replace('_', ' ');
        };
    }
}
