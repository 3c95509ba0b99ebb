package dev.flinks3.bench.checkpoint.report;

import dev.flinks3.bench.checkpoint.stats.CheckpointStats;
import dev.flinks3.bench.checkpoint.stats.Units;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Paint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleBiFunction;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The report's PNG charts (JFreeChart, headless). Per checkpoint, one series per run: duration and state size
 * by checkpoint number, duration and checkpointed size over time (seconds from the job's start to the
 * checkpoint's trigger, so runs compare by how many checkpoints fit in the same minutes), and throughput
 * against state size; a failed checkpoint is a cross in its run's colour in each of them. Per contender: the
 * p50/p90/p99 of checkpoint duration as bars, and the restore time per run. A contender has one colour in all
 * charts ({@link ContenderColours}); its rounds differ by marker and shade. A chart with nothing measured is
 * not written. MB = 10^6 bytes.
 */
final class Charts {

    static final String DURATION = "checkpoint-duration.png";
    static final String DURATION_OVER_TIME = "checkpoint-duration-over-time.png";
    static final String STATE_SIZE = "state-size.png";
    static final String CHECKPOINTED_SIZE_OVER_TIME = "checkpointed-size-over-time.png";
    static final String THROUGHPUT = "throughput-vs-state-size.png";
    static final String PERCENTILES = "duration-percentiles.png";
    static final String RESTORE = "restore-time.png";

    private static final int WIDTH = 900;
    private static final int HEIGHT = 500;
    private static final String TIME_AXIS = "seconds since the job started (checkpoint trigger)";

    private final Path directory;
    private final ContenderColours colours;

    Charts(Path directory, ContenderColours colours) {
        this.directory = directory;
        this.colours = colours;
    }

    /**
     * Writes the charts that have something to show.
     *
     * @return the files written, relative names, in report order
     * @throws IOException if a file cannot be written
     */
    List<String> write(List<RunFigures> runs, Comparison comparison) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(directory);
        Map<String, JFreeChart> charts = build(runs, comparison);
        for (Map.Entry<String, JFreeChart> chart : charts.entrySet()) {
            ChartUtils.saveChartAsPNG(directory.resolve(chart.getKey()).toFile(), chart.getValue(), WIDTH, HEIGHT);
        }
        return List.copyOf(charts.keySet());
    }

    /** The charts that have something to show, by file name, in report order. */
    Map<String, JFreeChart> build(List<RunFigures> runs, Comparison comparison) {
        Map<String, JFreeChart> charts = new LinkedHashMap<>();
        if (runs.stream().anyMatch(r -> !r.checkpoints().isEmpty())) {
            charts.put(
                    DURATION,
                    perCheckpoint(
                            "Checkpoint duration by checkpoint number",
                            "checkpoint number",
                            "end-to-end duration (s)",
                            runs,
                            (r, c) -> c.id(),
                            Charts::durationSeconds,
                            true,
                            true));
            charts.put(
                    DURATION_OVER_TIME,
                    perCheckpoint(
                            "Checkpoint duration over time",
                            TIME_AXIS,
                            "end-to-end duration (s)",
                            runs,
                            RunFigures::secondsSinceStart,
                            Charts::durationSeconds,
                            true,
                            false));
            charts.put(
                    STATE_SIZE,
                    perCheckpoint(
                            "State size by checkpoint number",
                            "checkpoint number",
                            "state size (MB)",
                            runs,
                            (r, c) -> c.id(),
                            (r, c) -> Units.megabytes(c.stateSizeBytes()),
                            true,
                            true));
            charts.put(
                    CHECKPOINTED_SIZE_OVER_TIME,
                    perCheckpoint(
                            "Checkpointed size over time",
                            TIME_AXIS,
                            "checkpointed size (MB)",
                            runs,
                            RunFigures::secondsSinceStart,
                            (r, c) -> Units.megabytes(c.checkpointedSizeBytes()),
                            true,
                            false));
            charts.put(
                    THROUGHPUT,
                    perCheckpoint(
                            "Checkpoint throughput against state size",
                            "state size (MB)",
                            "throughput (MB/s)",
                            runs,
                            (r, c) -> Units.megabytes(c.stateSizeBytes()),
                            (r, c) -> c.throughputMbPerSecond(),
                            false,
                            false));
        }
        if (comparison.contenders().stream().anyMatch(c -> Comparison.measured(c.p50DurationMs()))) {
            charts.put(PERCENTILES, percentiles(comparison));
        }
        if (runs.stream().anyMatch(RunFigures::hasRestoreTime)) {
            charts.put(RESTORE, restore(runs));
        }
        charts.values().forEach(chart -> {
            chart.setBackgroundPaint(Color.WHITE);
            chart.getPlot().setBackgroundPaint(Color.WHITE);
        });
        return charts;
    }

    private static double durationSeconds(RunFigures run, CheckpointStats checkpoint) {
        return checkpoint.endToEndDurationMs() / 1000.0;
    }

    /**
     * Per run a series of its completed checkpoints (its colour, its marker, joined by a line if {@code lines})
     * and a series of its failed ones (crosses in its colour, listed in the legend only where there are any).
     */
    private JFreeChart perCheckpoint(
            String title,
            String xLabel,
            String yLabel,
            List<RunFigures> runs,
            ToDoubleBiFunction<RunFigures, CheckpointStats> x,
            ToDoubleBiFunction<RunFigures, CheckpointStats> y,
            boolean lines,
            boolean integerX) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(lines, true);
        for (RunFigures run : runs) {
            XYSeries completed = new XYSeries(run.label(), false, true);
            XYSeries failed = new XYSeries(run.label() + " failed", false, true);
            for (CheckpointStats c : run.checkpoints()) {
                (c.completed() ? completed : failed).add(x.applyAsDouble(run, c), y.applyAsDouble(run, c));
            }
            Color colour = colours.of(run.contender(), run.index());
            int series = data.getSeriesCount();
            data.addSeries(completed);
            renderer.setSeriesPaint(series, colour);
            renderer.setSeriesShape(series, ContenderColours.marker(run.index()));
            renderer.setSeriesStroke(series, new BasicStroke(2f));
            data.addSeries(failed);
            renderer.setSeriesPaint(series + 1, colour);
            renderer.setSeriesShape(series + 1, ContenderColours.failedMarker());
            renderer.setSeriesLinesVisible(series + 1, false);
            renderer.setSeriesVisibleInLegend(series + 1, failed.getItemCount() > 0);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(
                title, xLabel, yLabel, data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setRenderer(renderer);
        if (integerX) {
            ((NumberAxis) plot.getDomainAxis()).setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        }
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return chart;
    }

    /** p50, p90 and p99 of completed checkpoints' durations, one bar colour per contender (means over rounds). */
    private JFreeChart percentiles(Comparison comparison) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        List<String> names = new ArrayList<>();
        for (Comparison.ContenderFigures c : comparison.contenders()) {
            if (Comparison.measured(c.p50DurationMs())) {
                names.add(c.name());
                data.addValue(c.p50DurationMs().mean() / 1000, c.name(), "p50");
                data.addValue(c.p90DurationMs().mean() / 1000, c.name(), "p90");
                data.addValue(c.p99DurationMs().mean() / 1000, c.name(), "p99");
            }
        }
        JFreeChart chart = ChartFactory.createBarChart(
                "Checkpoint duration percentiles (mean over rounds)",
                "percentile of completed checkpoints",
                "end-to-end duration (s)",
                data,
                PlotOrientation.VERTICAL,
                true,
                false,
                false);
        BarRenderer renderer = barRenderer(chart);
        for (int i = 0; i < names.size(); i++) {
            renderer.setSeriesPaint(i, colours.of(names.get(i)));
        }
        return chart;
    }

    /** The restore time of every run that measured one, each bar in its run's colour. */
    private JFreeChart restore(List<RunFigures> runs) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        List<Paint> paints = new ArrayList<>();
        for (RunFigures run : runs) {
            if (run.hasRestoreTime()) {
                data.addValue(run.restoreMs() / 1000.0, "restore", run.label());
                paints.add(colours.of(run.contender(), run.index()));
            }
        }
        JFreeChart chart = ChartFactory.createBarChart(
                "Restore time: JobManager receipt to all subtasks RUNNING",
                "run",
                "seconds",
                data,
                PlotOrientation.VERTICAL,
                false,
                false,
                false);
        chart.getCategoryPlot().setRenderer(new BarRenderer() {
            @Override
            public Paint getItemPaint(int row, int column) {
                return paints.get(column);
            }
        });
        barRenderer(chart);
        return chart;
    }

    private static BarRenderer barRenderer(JFreeChart chart) {
        CategoryPlot plot = chart.getCategoryPlot();
        BarRenderer renderer = (BarRenderer) plot.getRenderer();
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return renderer;
    }
}
