package dev.flinks3.transfer.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.RangeStream;
import dev.flinks3.transfer.S3Location;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

class VerifiedRangeStreamTest {

    private static final S3Location LOCATION = S3Location.of("s3", "bucket", "key");

    @Test
    void onlyAnswersWithAWholeObjectChecksumAreCheckedFirst() {
        FakeBody body = new FakeBody(new byte[10], null);

        assertThat(VerifiedRangeStream.of(body, answer(10L, null), LOCATION)).isSameAs(body);
        assertThat(VerifiedRangeStream.of(body, answer(10L, "AAAAAA==-3"), LOCATION))
                .isSameAs(body);
        assertThat(VerifiedRangeStream.of(
                        body, answer(VerifiedRangeStream.MAX_VERIFIED_BYTES + 1, "AAAAAA=="), LOCATION))
                .isSameAs(body);
        assertThat(VerifiedRangeStream.of(body, answer(10L, "AAAAAA=="), LOCATION))
                .isInstanceOf(VerifiedRangeStream.class);
    }

    @Test
    void theBodyIsReadInFullAtTheFirstReadAndThenServed() throws IOException {
        FakeBody body = new FakeBody(new byte[] {1, 2, 3}, null);
        RangeStream checked = VerifiedRangeStream.of(body, answer(3L, "AAAAAA=="), LOCATION);

        assertThat(body.closed).isFalse();
        assertThat(checked.read()).isEqualTo(1);
        assertThat(body.closed).as("read to its end and released").isTrue();
        assertThat(checked.readAllBytes()).containsExactly(2, 3);
    }

    @Test
    void aMismatchFailsTheFirstReadNamingTheLocation() {
        FakeBody body = new FakeBody(new byte[] {1, 2, 3}, new IOException("Data read has a different checksum"));
        RangeStream checked = VerifiedRangeStream.of(body, answer(3L, "AAAAAA=="), LOCATION);

        assertThatThrownBy(checked::read)
                .isInstanceOf(IOException.class)
                .hasMessageContaining(LOCATION.toString())
                .hasMessageContaining("does not match its checksum")
                .hasRootCauseMessage("Data read has a different checksum");
    }

    @Test
    void abortBeforeTheFirstReadDropsTheConnection() {
        FakeBody body = new FakeBody(new byte[3], null);
        RangeStream checked = VerifiedRangeStream.of(body, answer(3L, "AAAAAA=="), LOCATION);

        checked.abort();

        assertThat(body.aborted).isTrue();
    }

    private static GetObjectResponse answer(Long length, String crc32c) {
        return GetObjectResponse.builder()
                .contentLength(length)
                .checksumCRC32C(crc32c)
                .build();
    }

    /** A body that ends, or fails at its end as the SDK's check does. */
    private static final class FakeBody extends RangeStream {
        private final ByteArrayInputStream bytes;
        private final IOException atEnd;
        boolean closed;
        boolean aborted;

        FakeBody(byte[] bytes, IOException atEnd) {
            this.bytes = new ByteArrayInputStream(bytes);
            this.atEnd = atEnd;
        }

        @Override
        public int read() throws IOException {
            int b = bytes.read();
            if (b < 0 && atEnd != null) {
                throw atEnd;
            }
            return b;
        }

        @Override
        public void abort() {
            aborted = true;
        }

        @Override
        public long objectLength() {
            return 3;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
