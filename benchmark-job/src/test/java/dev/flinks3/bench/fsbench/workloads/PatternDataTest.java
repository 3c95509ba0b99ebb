package dev.flinks3.bench.fsbench.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class PatternDataTest {

    private static final PatternData DATA = new PatternData();

    private static byte[] content(long seed, long position, int length) {
        int offset = DATA.offset(seed, position);
        return Arrays.copyOfRange(DATA.array(), offset, offset + length);
    }

    @Test
    void aFileIsContinuousAcrossThePoolsEnd() {
        long seed = 3;
        long wrap = PatternData.POOL_BYTES - DATA.offset(seed, 0);
        byte[] across = content(seed, wrap - 100, 200);

        assertThat(DATA.mismatch(seed, wrap - 100, across, 0, 200)).isEqualTo(-1);
        assertThat(Arrays.copyOfRange(across, 100, 200)).isEqualTo(content(seed, wrap, 100));
    }

    @Test
    void bytesFromAnotherFileOrPartAlignedOffsetDiffer() {
        byte[] part = content(1, 8L << 20, 1024);

        assertThat(DATA.mismatch(2, 8L << 20, part, 0, 1024)).isGreaterThanOrEqualTo(8L << 20);
        assertThat(DATA.mismatch(1, 0, part, 0, 1024)).isGreaterThanOrEqualTo(0);
    }

    @Test
    void mismatchNamesTheFilePositionOfTheFirstWrongByte() {
        byte[] bytes = content(5, 1000, 64);
        bytes[10] ^= 1;

        assertThat(DATA.mismatch(5, 1000, bytes, 0, 64)).isEqualTo(1010);
    }

    @Test
    void crcOfAWholeFileMatchesTheCrcOfItsBytes() {
        long length = WorkloadSizes.MAX_CALL_BYTES + 12_345L;
        CRC32C crc = new CRC32C();
        crc.update(content(9, 0, WorkloadSizes.MAX_CALL_BYTES));
        crc.update(content(9, WorkloadSizes.MAX_CALL_BYTES, 12_345));

        assertThat(DATA.crc32c(9, length)).isEqualTo(crc.getValue());
    }

    @Test
    void contentCheckAcceptsTheRightBytesInAnyChunking() {
        ContentCheck check = new ContentCheck(DATA, 4, "f", 100);
        check.update(content(4, 100, 7), 0, 7);
        check.update(content(4, 107, 93), 0, 93);

        assertThat(check.result(100)).isEmpty();
    }

    @Test
    void contentCheckReportsAWrongByteAndAShortRead() {
        byte[] wrong = content(4, 0, 50);
        wrong[20] ^= 0x40;
        ContentCheck corrupt = new ContentCheck(DATA, 4, "f", 0);
        corrupt.update(wrong, 0, 50);
        ContentCheck shortRead = new ContentCheck(DATA, 4, "f", 0);
        shortRead.update(content(4, 0, 49), 0, 49);

        assertThat(corrupt.result(50)).isEqualTo("f: wrong byte at position 20");
        assertThat(shortRead.result(50)).isEqualTo("f: read 49 bytes from position 0, expected 50");
    }
}
