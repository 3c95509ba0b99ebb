package dev.flinks3.transfer;

import java.io.IOException;

/**
 * An S3 request that failed for good (after the SDK's retries): names the {@code s3://} location,
 * the operation, the HTTP status and the S3 error code.
 */
public class S3RequestException extends IOException {

    private static final long serialVersionUID = 1L;

    private final int statusCode;
    private final String errorCode;

    /**
     * @param operation the S3 operation, e.g. {@code UploadPart}
     * @param location the object or bucket the request was for
     * @param statusCode HTTP status, 0 if no response arrived
     * @param errorCode S3 error code such as {@code SlowDown}, or {@code null}
     * @param cause the SDK's exception
     */
    public S3RequestException(String operation, String location, int statusCode, String errorCode, Throwable cause) {
        this(operation, location, statusCode, errorCode, null, cause);
    }

    /**
     * @param hint what the user can do about it (e.g. which switch turns off a feature the server
     *     rejects), appended to the message; {@code null} for none
     */
    public S3RequestException(
            String operation, String location, int statusCode, String errorCode, String hint, Throwable cause) {
        super(
                operation + " failed for " + location + ": "
                        + (statusCode == 0 ? "no response" : "HTTP " + statusCode)
                        + (errorCode == null ? "" : " " + errorCode)
                        + (cause == null || cause.getMessage() == null
                                ? ""
                                : " (" + firstLine(cause.getMessage()) + ")")
                        + (hint == null ? "" : ". " + hint),
                cause);
        this.statusCode = statusCode;
        this.errorCode = errorCode;
    }

    /** HTTP status of the final attempt, 0 if no response arrived. */
    public int statusCode() {
        return statusCode;
    }

    /** S3 error code of the final attempt, or {@code null}. */
    public String errorCode() {
        return errorCode;
    }

    private static String firstLine(String message) {
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
