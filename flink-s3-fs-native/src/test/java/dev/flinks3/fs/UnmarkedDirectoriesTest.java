package dev.flinks3.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flinks3.transfer.S3Location;
import org.junit.jupiter.api.Test;

class UnmarkedDirectoriesTest {

    private final UnmarkedDirectories directories = new UnmarkedDirectories();

    @Test
    void aDirectoryAndItsParentsAreKnownButNotItsSiblingsOrNamesThatOnlyStartTheSame() {
        directories.add(at("a/b/c"));

        assertThat(directories.contains(at("a/b/c"))).isTrue();
        assertThat(directories.contains(at("a/b/c/"))).isTrue();
        assertThat(directories.contains(at("a/b"))).isTrue();
        assertThat(directories.contains(at("a"))).isTrue();
        assertThat(directories.contains(at("a/b/c/d"))).isFalse();
        assertThat(directories.contains(at("a/b/cd"))).isFalse();
        assertThat(directories.contains(at("a/bc"))).isFalse();
        assertThat(directories.contains(S3Location.of("s3", "other", "a/b/c")))
                .as("another bucket")
                .isFalse();
        assertThat(directories.contains(at(""))).as("the root is not kept").isFalse();
    }

    @Test
    void childrenAreTheNextLevelOnceEach() {
        directories.add(at("job/db/x"));
        directories.add(at("job/db/y/z"));
        directories.add(at("job/dbx"));
        directories.add(at("other"));

        assertThat(directories.children(at("job/db"))).containsExactly(at("job/db/x"), at("job/db/y"));
        assertThat(directories.children(at("job"))).containsExactly(at("job/db"), at("job/dbx"));
        assertThat(directories.children(at(""))).containsExactly(at("job"), at("other"));
        assertThat(directories.children(at("job/db/x"))).isEmpty();
    }

    @Test
    void forgettingADirectoryForgetsWhatIsBelowItAndNothingElse() {
        directories.add(at("a/b"));
        directories.add(at("a/b/c"));
        directories.add(at("a/bc"));

        assertThat(directories.forget(at("a/b"))).isTrue();

        assertThat(directories.contains(at("a/b"))).isFalse();
        assertThat(directories.contains(at("a/b/c"))).isFalse();
        assertThat(directories.contains(at("a/bc"))).isTrue();
        assertThat(directories.forget(at("a/b"))).isFalse();
        assertThat(directories.forget(at(""))).isFalse();
    }

    @Test
    void aMoveTakesTheSubtreeToItsNewName() {
        directories.add(at("tmp/x/y"));
        directories.add(at("tmp/z"));

        assertThat(directories.move(at("tmp"), at("done"))).isTrue();

        assertThat(directories.contains(at("tmp"))).isFalse();
        assertThat(directories.contains(at("done/x/y"))).isTrue();
        assertThat(directories.contains(at("done/z"))).isTrue();
        assertThat(directories.move(at("tmp"), at("again")))
                .as("nothing left at the source")
                .isFalse();
    }

    @Test
    void pastTheBoundTheFirstInKeyOrderAreForgotten() {
        for (int i = 0; i < UnmarkedDirectories.MAX_DIRECTORIES + 10; i++) {
            directories.add(at(String.format("d%06d", i)));
        }

        assertThat(directories.contains(at("d000009"))).isFalse();
        assertThat(directories.contains(at("d000010"))).isTrue();
        assertThat(directories.contains(at(String.format("d%06d", UnmarkedDirectories.MAX_DIRECTORIES + 9))))
                .isTrue();
    }

    private static S3Location at(String key) {
        return S3Location.of("s3", "bucket", key);
    }
}
