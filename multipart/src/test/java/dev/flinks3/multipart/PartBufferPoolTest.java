package dev.flinks3.multipart;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class PartBufferPoolTest {

    private static final int PART = 1024;

    private final UploadBudget budget = new UploadBudget(8 * PART);

    @Test
    void partSizedBufferIsReusedClearedAndCountedAgain() throws Exception {
        PartBufferPool pool = new PartBufferPool(budget, PART, 4);
        ByteBuffer first = pool.take(PART);
        first.put((byte) 7);
        pool.give(first);
        assertThat(budget.heldBytes()).isZero();

        ByteBuffer second = pool.take(PART);

        assertThat(second).isSameAs(first);
        assertThat(second.position()).isZero();
        assertThat(second.remaining()).isEqualTo(PART);
        assertThat(budget.heldBytes()).isEqualTo(PART);
    }

    @Test
    void streamsSideBySideAllocateOnlyWhatWasInUseAtOnce() throws Exception {
        PartBufferPool pool = new PartBufferPool(budget, PART, 8);
        ByteBuffer[] inUse = new ByteBuffer[6];
        for (int i = 0; i < inUse.length; i++) {
            inUse[i] = pool.take(PART);
        }
        for (ByteBuffer buffer : inUse) {
            pool.give(buffer);
        }
        assertThat(pool.idleBuffers()).isEqualTo(6);

        for (int round = 0; round < 3; round++) {
            ByteBuffer[] again = new ByteBuffer[6];
            for (int i = 0; i < again.length; i++) {
                again[i] = pool.take(PART);
                assertThat(again[i]).isIn((Object[]) inUse);
            }
            for (ByteBuffer buffer : again) {
                pool.give(buffer);
            }
        }
    }

    @Test
    void keepsNoMoreIdleBuffersThanAllowed() throws Exception {
        PartBufferPool pool = new PartBufferPool(budget, PART, 2);
        ByteBuffer a = pool.take(PART);
        ByteBuffer b = pool.take(PART);
        ByteBuffer c = pool.take(PART);
        pool.give(a);
        pool.give(b);
        pool.give(c);

        assertThat(pool.idleBuffers()).isEqualTo(2);
        assertThat(budget.heldBytes()).isZero();
    }

    @Test
    void otherSizesAreNotKept() throws Exception {
        PartBufferPool pool = new PartBufferPool(budget, PART, 4);
        ByteBuffer small = pool.take(PART / 4);
        pool.give(small);

        assertThat(pool.idleBuffers()).isZero();
        assertThat(pool.take(PART / 4)).isNotSameAs(small);
    }

    @Test
    void idleBuffersCountAgainstTheLimitSoUsedAndIdleBuffersNeverExceedIt() throws Exception {
        UploadBudget small = new UploadBudget(4 * PART);
        PartBufferPool pool = new PartBufferPool(small, PART, 8);
        ByteBuffer[] parts = new ByteBuffer[4];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = pool.take(PART);
        }
        for (ByteBuffer part : parts) {
            pool.give(part);
        }
        assertThat(small.idleBytes()).isEqualTo(4L * PART);

        // A stream's small first buffer and its growth need room the idle buffers take: they go.
        ByteBuffer first = pool.take(PART / 2);
        assertThat(small.heldBytes() + small.idleBytes()).isLessThanOrEqualTo(small.limitBytes());
        ByteBuffer grown = pool.grow(first, 3 * PART);
        assertThat(small.heldBytes() + small.idleBytes())
                .as("held %d + idle %d bytes", small.heldBytes(), small.idleBytes())
                .isLessThanOrEqualTo(small.limitBytes());
        assertThat(pool.idleBuffers()).isEqualTo(1);

        pool.give(grown);
        ByteBuffer reused = pool.take(PART);
        assertThat(reused).isIn((Object[]) parts);
        pool.give(reused);
        assertThat(small.heldBytes()).isZero();
        assertThat(small.idleBytes()).isEqualTo(PART);
    }
}
