package dev.flinks3.bench.checkpoint.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Color;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ContenderColoursTest {

    @Test
    void aKnownPluginHasItsColourInEveryReportWhateverElseRuns() {
        ContenderColours compare = new ContenderColours(List.of("ours", "native", "presto", "hadoop"));
        ContenderColours cluster = new ContenderColours(List.of("presto-s3-benchmark", "native-s3-benchmark"));

        assertThat(cluster.of("native-s3-benchmark")).isEqualTo(compare.of("native"));
        assertThat(cluster.of("presto-s3-benchmark")).isEqualTo(compare.of("presto"));
        assertThat(new ContenderColours(List.of("hadoop")).of("hadoop")).isEqualTo(compare.of("hadoop"));
    }

    @Test
    void otherNamesGetAStableColourAndNoTwoContendersOfAReportShareOne() {
        List<String> names = List.of("ours", "ours-crt", "native", "minio-run", "presto", "hadoop", "ceph");
        ContenderColours first = new ContenderColours(names);
        ContenderColours second = new ContenderColours(names);

        Set<Color> colours = names.stream().map(first::of).collect(Collectors.toSet());
        assertThat(colours).hasSize(names.size());
        names.forEach(n -> assertThat(second.of(n)).as(n).isEqualTo(first.of(n)));
        // ours-crt holds "ours" as a word, but ours came first and keeps its colour.
        assertThat(first.of("ours-crt")).isNotEqualTo(first.of("ours"));
    }

    @Test
    void laterRoundsAreLighterShadesOfTheSameColourAndStayReadableOnWhite() {
        ContenderColours colours = new ContenderColours(List.of("ours"));
        Color round1 = colours.of("ours", 0);
        Color round4 = colours.of("ours", 3);

        assertThat(round1).isEqualTo(colours.of("ours"));
        assertThat(round4.getBlue()).isGreaterThan(round1.getBlue());
        assertThat(round4.getRed()).isGreaterThan(round1.getRed());
        // The lightest shade keeps a luminance well below white's.
        Color lightest = colours.of("ours", 20);
        double luminance = 0.2126 * lightest.getRed() + 0.7152 * lightest.getGreen() + 0.0722 * lightest.getBlue();
        assertThat(luminance).isLessThan(200);
    }
}
