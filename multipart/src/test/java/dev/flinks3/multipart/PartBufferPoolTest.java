package dev.flinks3.multipart;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class PartBufferPoolTest {

    private static final int PART = 1024;

    /** Counts array lengths only, so the figures below are whole parts. */
    private static final HeapFootprint LENGTHS = new HeapFootprint(0, 0);

    private final UploadBudget budget = new UploadBudget(8 * PART);

    @Test
    void partSizedBufferIsReusedClearedAndCountedAgain() throws Exception {
        PartBufferPool pool = new PartBufferPool(budget, PART, 4, LENGTHS);
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
        PartBufferPool pool = new PartBufferPool(budget, PART, 8, LENGTHS);
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
        PartBufferPool pool = new PartBufferPool(budget, PART, 2, LENGTHS);
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
        PartBufferPool pool = new PartBufferPool(budget, PART, 4, LENGTHS);
        ByteBuffer small = pool.take(PART / 4);
        pool.give(small);

        assertThat(pool.idleBuffers()).isZero();
        assertThat(pool.take(PART / 4)).isNotSameAs(small);
    }

    @Test
    void idleBuffersCountAgainstTheLimitSoUsedAndIdleBuffersNeverExceedIt() throws Exception {
        UploadBudget small = new UploadBudget(4 * PART);
        PartBufferPool pool = new PartBufferPool(small, PART, 8, LENGTHS);
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

    @Test
    void aHumongousBufferIsChargedItsWholeRegionsSoTheLimitBoundsTheHeapTheyTake() throws Exception {
        // 1 MiB regions (G1 on a heap below 2 GiB): an 8 MiB array and its header take 9 regions.
        HeapFootprint g1 = new HeapFootprint(1 << 20, HeapFootprint.ARRAY_HEADER_BYTES);
        int part = 8 << 20;
        UploadBudget limit = new UploadBudget(32L * part);
        PartBufferPool pool = new PartBufferPool(limit, part, 0, g1);

        ByteBuffer buffer = pool.take(part);
        assertThat(limit.heldBytes()).isEqualTo(9L << 20);
        pool.markInFlight(buffer);
        assertThat(limit.inFlightBytes()).isEqualTo(9L << 20);
        pool.give(buffer, true);
        assertThat(limit.heldBytes()).isZero();
        assertThat(limit.inFlightBytes()).isZero();

        // Growing charges the difference of the two footprints; a small first buffer only its header.
        ByteBuffer first = pool.take(PartBuffer.FIRST_CAPACITY);
        assertThat(limit.heldBytes()).isEqualTo(PartBuffer.FIRST_CAPACITY + HeapFootprint.ARRAY_HEADER_BYTES);
        ByteBuffer grown = pool.grow(first, part);
        assertThat(limit.heldBytes()).isEqualTo(9L << 20);
        pool.give(grown);
        assertThat(limit.heldBytes()).isZero();

        // 256 MiB holds 28 such buffers, not 32: the 29th waits while some are in flight.
        assertThat(limit.limitBytes() / pool.charge(part)).isEqualTo(28);
    }

    @Test
    void aBufferAsLargeAsTheLimitIsChargedTheLimitAndStillGranted() throws Exception {
        HeapFootprint g1 = new HeapFootprint(1 << 20, HeapFootprint.ARRAY_HEADER_BYTES);
        int part = 8 << 20;
        UploadBudget limit = new UploadBudget(part);
        PartBufferPool pool = new PartBufferPool(limit, part, 0, g1);

        ByteBuffer buffer = pool.take(part);

        assertThat(limit.heldBytes()).isEqualTo(part);
        pool.give(buffer);
        assertThat(limit.heldBytes()).isZero();
    }

    @Test
    void smallArraysTakeTheirLengthAndHeaderRoundedToEightBytes() {
        HeapFootprint g1 = new HeapFootprint(1 << 20, HeapFootprint.ARRAY_HEADER_BYTES);
        assertThat(g1.of(1)).isEqualTo(24);
        assertThat(g1.of((1 << 19) - 16))
                .as("half a region: humongous, one region")
                .isEqualTo(1 << 20);
        assertThat(g1.of((1 << 19) - 24))
                .as("below half a region: not humongous")
                .isEqualTo((1 << 19) - 8);
        assertThat(new HeapFootprint(0, HeapFootprint.ARRAY_HEADER_BYTES).of(8 << 20))
                .as("no G1: no regions")
                .isEqualTo((8 << 20) + 16);
    }
}
