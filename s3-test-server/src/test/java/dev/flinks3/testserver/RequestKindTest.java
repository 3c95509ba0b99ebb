package dev.flinks3.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A proxy in front of the server classifies raw request lines the way the server's own log does. */
class RequestKindTest {

    static Stream<Arguments> requests() {
        return Stream.of(
                Arguments.of("PUT", "/b/dir/key", false, RequestKind.PUT_OBJECT),
                Arguments.of("put", "/b/dir/key", true, RequestKind.COPY_OBJECT),
                Arguments.of("PUT", "/b/key?partNumber=3&uploadId=abc", false, RequestKind.UPLOAD_PART),
                Arguments.of("PUT", "/b/key?partNumber=3&uploadId=abc", true, RequestKind.UPLOAD_PART_COPY),
                Arguments.of("POST", "/b/key?uploads", false, RequestKind.CREATE_MULTIPART_UPLOAD),
                Arguments.of("POST", "/b/key?uploadId=abc", false, RequestKind.COMPLETE_MULTIPART_UPLOAD),
                Arguments.of("DELETE", "/b/key?uploadId=abc", false, RequestKind.ABORT_MULTIPART_UPLOAD),
                Arguments.of("GET", "/b/key?uploadId=abc", false, RequestKind.LIST_PARTS),
                Arguments.of("GET", "/b/a%20key%2Bplus", false, RequestKind.GET_OBJECT),
                Arguments.of("HEAD", "/b/key", false, RequestKind.HEAD_OBJECT),
                Arguments.of("DELETE", "/b/key", false, RequestKind.DELETE_OBJECT),
                Arguments.of("GET", "/b?list-type=2&prefix=dir%2F&delimiter=%2F", false, RequestKind.LIST_OBJECTS_V2),
                Arguments.of("GET", "/b/?list-type=2", false, RequestKind.LIST_OBJECTS_V2),
                Arguments.of("GET", "/b?uploads&prefix=x", false, RequestKind.LIST_MULTIPART_UPLOADS),
                Arguments.of("POST", "/b?delete", false, RequestKind.DELETE_OBJECTS),
                Arguments.of("GET", "/", false, RequestKind.LIST_BUCKETS));
    }

    @ParameterizedTest(name = "{0} {1} copy={2}")
    @MethodSource("requests")
    void classifiesARawRequestLine(String method, String rawUrl, boolean copySource, RequestKind expected) {
        assertThat(RequestKind.of(method, rawUrl, copySource)).isEqualTo(expected);
    }
}
