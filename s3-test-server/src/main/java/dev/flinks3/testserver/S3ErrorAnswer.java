package dev.flinks3.testserver;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Writes an S3 error document ({@code <Error><Code>..}) as the answer to a request. */
final class S3ErrorAnswer {

    private S3ErrorAnswer() {}

    static void send(HttpServletResponse response, int httpStatus, String errorCode, String message) throws IOException {
        byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + errorCode + "</Code><Message>"
                        + message + "</Message><RequestId>test-server</RequestId></Error>")
                .getBytes(StandardCharsets.UTF_8);
        response.setStatus(httpStatus);
        response.setContentType("application/xml");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
