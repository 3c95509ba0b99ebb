package dev.flinks3.writer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.transfer.S3Location;
import org.junit.jupiter.api.Test;

class TailObjectsTest {

    private final S3Location target = S3Location.of("s3", "bucket", "out/part-0");

    @Test
    void aTailIsAHiddenSiblingOfItsTarget() {
        S3Location tail = TailObjects.newTail(target, TailObjects.newStreamId(), 1234);

        assertThat(tail.key()).startsWith("out/.part-0" + TailObjects.MARKER).doesNotContain("out/part-0/");
        assertThat(TailObjects.isTailObjectName(tail.key().substring("out/".length())))
                .isTrue();
        assertThat(TailObjects.isTailOf(tail.key(), target)).isTrue();
    }

    @Test
    void thePositionIsReadBackFromAStreamsTail() {
        String streamId = TailObjects.newStreamId();
        S3Location tail = TailObjects.newTail(target, streamId, 5_242_881);

        assertThat(TailObjects.positionOf(tail.key(), TailObjects.streamPrefix(target, streamId)))
                .isEqualTo(5_242_881);
        assertThat(TailObjects.positionOf(tail.key(), TailObjects.streamPrefix(target, TailObjects.newStreamId())))
                .isEqualTo(-1);
    }

    @Test
    void theTailsOfATargetWhoseNameExtendsAnotherAreNotTheOthers() {
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
}
