package dev.flinks3.testserver;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** S3 error documents ({@code <Error><Code>..}), as the server's answers and for proxies in tests. */
public final class S3ErrorAnswer {

    private S3ErrorAnswer() {}

    /** The XML of an S3 error answer; the arguments are inserted as given (no XML escaping). */
    public static String document(String errorCode, String message, String requestId) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + errorCode + "</Code><Message>" + message
                + "</Message><RequestId>" + requestId + "</RequestId></Error>";
    }

    static void send(HttpServletResponse response, int httpStatus, String errorCode, String message)
            throws IOException {
        byte[] body = document(errorCode, message, "test-server").getBytes(StandardCharsets.UTF_8);
        response.setStatus(httpStatus);
        response.setContentType("application/xml");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
