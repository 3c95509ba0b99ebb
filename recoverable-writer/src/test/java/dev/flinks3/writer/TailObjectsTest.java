package dev.flinks3.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flinks3.transfer.S3Location;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TailObjectsTest {

    private final S3Location target = S3Location.of("s3", "bucket", "out/part-0");

    @Test
    void aTailIsAHiddenSiblingOfItsTarget() throws IOException {
        S3Location tail = TailObjects.newTail(target, TailObjects.newStreamId(), 1234);

        assertThat(tail.key()).startsWith("out/.part-0" + TailObjects.MARKER).doesNotContain("out/part-0/");
        assertThat(TailObjects.isTailObjectName(tail.key().substring("out/".length())))
                .isTrue();
        assertThat(TailObjects.isTailOf(tail.key(), target)).isTrue();
    }

    @Test
    void thePositionIsReadBackFromAStreamsTail() throws IOException {
        String streamId = TailObjects.newStreamId();
        S3Location tail = TailObjects.newTail(target, streamId, 5_242_881);

        assertThat(TailObjects.positionOf(tail.key(), TailObjects.streamPrefix(target, streamId)))
                .isEqualTo(5_242_881);
        assertThat(TailObjects.positionOf(tail.key(), TailObjects.streamPrefix(target, TailObjects.newStreamId())))
                .isEqualTo(-1);
    }

    @Test
    void theTailsOfATargetWhoseNameExtendsAnotherAreNotTheOthers() throws IOException {
        S3Location odd = S3Location.of("s3", "bucket", "out/part-0.s3-tail.x");
        S3Location oddTail = TailObjects.newTail(odd, TailObjects.newStreamId(), 1);

        assertThat(oddTail.key()).startsWith(TailObjects.targetPrefix(target));
        assertThat(TailObjects.isTailOf(oddTail.key(), target)).isFalse();
        assertThat(TailObjects.isTailOf(oddTail.key(), odd)).isTrue();
    }

    @Test
    void ordinaryNamesAreNoTails() {
        assertThat(TailObjects.isTailObjectName("part-0")).isFalse();
        assertThat(TailObjects.isTailObjectName(".part-0.inprogress.1234")).isFalse();
        assertThat(TailObjects.isTailObjectName("part-0.s3-tail.x")).isFalse();
        assertThat(TailObjects.isTailOf("out/part-0", target)).isFalse();
    }

    @Test
    void aNameNearS3sKeyLimitGetsTailsNamedByItsDigestThatFitAndStayItsOwn() throws IOException {
        String directory = "out/" + "d".repeat(200) + "/";
        S3Location longTarget = S3Location.of("s3", "bucket", directory + "n".repeat(1024 - directory.length()));
        S3Location shorter = S3Location.of("s3", "bucket", directory + "n".repeat(1000 - directory.length()));

        S3Location tail = TailObjects.newTail(longTarget, TailObjects.newStreamId(), Long.MAX_VALUE);

        assertThat(tail.key().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(S3Location.MAX_KEY_BYTES);
        assertThat(tail.key()).startsWith(directory + ".~");
        assertThat(TailObjects.isTailObjectName(tail.key().substring(directory.length())))
                .isTrue();
        assertThat(TailObjects.isTailOf(tail.key(), longTarget)).isTrue();
        assertThat(TailObjects.isTailOf(tail.key(), shorter)).isFalse();
    }

    @Test
    void aDirectoryTooLongForAnyTailFailsWithTheLengthsAndTheLimit() {
        S3Location deep = S3Location.of("s3", "bucket", "d/".repeat(470) + "part-0-0-0123456789abcdef");

        assertThatThrownBy(() -> TailObjects.newTail(deep, TailObjects.newStreamId(), 1))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("1024 bytes S3 allows")
                .hasMessageContaining("940 bytes");
    }
}
