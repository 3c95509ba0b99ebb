package dev.flinks3.bench.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** How the S3 server's storage is chosen: tmpfs only with room for the run and memory beside it. */
@Timeout(10)
class ServerStorageTest {

    private static final long GIB = 1L << 30;

    @TempDir
    Path dir;

    @Test
    void aFolderWithRoomAndEnoughMemoryIsUsable() throws Exception {
        assertThat(ServerStorage.tmpfsLacks(1024, dir, 64 * GIB)).isNull();
        assertThat(ServerStorage.tmpfsLacks(1024, dir, -1)).as("memory unknown").isNull();
    }

    @Test
    void aRunLargerThanTheFreeSpaceIsNamed() throws Exception {
        long free = Files.getFileStore(dir).getUsableSpace();

        assertThat(ServerStorage.tmpfsLacks(free + GIB, dir, Long.MAX_VALUE))
                .contains(dir + " has ")
                .contains(" free, the run stores up to ");
    }

    @Test
    void tooLittleMemoryBesideTheObjectsIsNamed() throws Exception {
        assertThat(ServerStorage.tmpfsLacks(GIB, dir, 2 * GIB))
                .startsWith("the machine has 2.0 GiB of memory available, the run stores up to 1.0 GiB");
    }

    @Test
    void aMissingFolderIsNamed() throws Exception {
        assertThat(ServerStorage.tmpfsLacks(1, dir.resolve("absent"), 64 * GIB))
                .isEqualTo(dir.resolve("absent") + " is not a writable folder");
    }

    @Test
    void diskIsTheOutputFolderAndIsKeptOnRelease() throws Exception {
        Path data = Files.createDirectories(dir.resolve("server-data"));
        Files.writeString(data.resolve("object"), "x");

        ServerStorage storage = ServerStorage.choose(ServerStorage.Choice.DISK, data, GIB);
        storage.release();

        assertThat(storage.dir()).isEqualTo(data);
        assertThat(storage.inMemory()).isFalse();
        assertThat(storage.describe()).startsWith("disk, " + data);
        assertThat(data.resolve("object")).exists();
    }

    @Test
    void tmpfsThatCannotHoldTheRunIsAUsageErrorWhenAskedFor() {
        assertThatThrownBy(() -> ServerStorage.choose(ServerStorage.Choice.TMPFS, dir, Long.MAX_VALUE / 2))
                .isInstanceOf(UsageException.class)
                .hasMessageStartingWith("--server-storage tmpfs: ");
    }

    @Test
    void autoFallsBackToDiskSayingWhy() throws Exception {
        ServerStorage storage = ServerStorage.choose(ServerStorage.Choice.AUTO, dir, Long.MAX_VALUE / 2);

        assertThat(storage.inMemory()).isFalse();
        assertThat(storage.dir()).isEqualTo(dir);
        assertThat(storage.describe()).startsWith("disk, " + dir + " (tmpfs not used: ");
    }

    @Test
    void choicesAreParsedInAnyCase() {
        assertThat(ServerStorage.Choice.parse("TmpFs")).isEqualTo(ServerStorage.Choice.TMPFS);
        assertThat(ServerStorage.Choice.parse(" disk ")).isEqualTo(ServerStorage.Choice.DISK);
    }
}
