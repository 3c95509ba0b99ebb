package dev.flinks3.multipart.crt;

import java.io.IOException;

/**
 * The Transfer Manager's upload failed before its client asked for the first byte of the body (the
 * CreateMultipartUpload was refused, or its answer was not understood): nothing of the stream was
 * handed over, so another uploader can still take the whole stream.
 */
final class NotTaken extends IOException {

    private static final long serialVersionUID = 1L;

    NotTaken(String message, Throwable cause) {
        super(message, cause);
    }
}
