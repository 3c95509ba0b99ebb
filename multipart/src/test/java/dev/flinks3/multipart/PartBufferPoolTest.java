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
}
