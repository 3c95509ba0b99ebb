package dev.flinks3.bench.checkpoint.report;

import dev.flinks3.bench.checkpoint.stats.CheckpointStats;
import dev.flinks3.bench.checkpoint.stats.Units;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The report's PNG charts (JFreeChart), one series per run: checkpoint duration and state size against
 * checkpoint number, throughput against state size, and restore time per run. Headless.
 */
final class Charts {

    static final String DURATION = "checkpoint-duration.png";
    static final String STATE_SIZE = "state-size.png";
    static final String THROUGHPUT = "throughput-vs-state-size.png";
    static final String RESTORE = "restore-time.png";

    private static final int WIDTH = 900;
    private static final int HEIGHT = 500;

    private final Path directory;

    Charts(Path directory) {
        this.directory = directory;
    }

    /**
     * Writes all charts.
     *
     * @return the files written, relative names
     * @throws IOException if a file cannot be written
     */
    List<String> write(List<RunFigures> runs) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(directory);
        List<String> written = new ArrayList<>();
        written.add(save(DURATION, byCheckpointNumber(ChartFactory.createXYLineChart("Checkpoint duration",
                "checkpoint number", "end-to-end duration (s)",
                series(runs, c -> c.id(), c -> c.endToEndDurationMs() / 1000.0),
                PlotOrientation.VERTICAL, true, false, false))));
        written.add(save(STATE_SIZE, byCheckpointNumber(ChartFactory.createXYLineChart("State size",
                "checkpoint number", "state size (MB)",
                series(runs, c -> c.id(), c -> Units.megabytes(c.stateSizeBytes())),
                PlotOrientation.VERTICAL, true, false, false))));
        written.add(save(THROUGHPUT, ChartFactory.createScatterPlot("Checkpoint throughput against state size",
                "state size (MB)", "throughput (MB/s)",
                series(runs, c -> Units.megabytes(c.stateSizeBytes()), CheckpointStats::throughputMbPerSecond),
                PlotOrientation.VERTICAL, true, false, false)));
        DefaultCategoryDataset restore = new DefaultCategoryDataset();
        for (RunFigures run : runs) {
            restore.addValue(run.restoreMs() / 1000.0, "submission until all subtasks RUNNING", run.label());
        }
        written.add(save(RESTORE, ChartFactory.createBarChart("Restore time", "run", "seconds", restore,
                PlotOrientation.VERTICAL, false, false, false)));
        return written;
    }

    private static XYSeriesCollection series(List<RunFigures> runs, ToDoubleFunction<CheckpointStats> x,
            ToDoubleFunction<CheckpointStats> y) {
        XYSeriesCollection collection = new XYSeriesCollection();
        for (RunFigures run : runs) {
            XYSeries series = new XYSeries(run.label(), false, true);
            if (run.result().run() != null) {
                run.result().run().checkpoints().stream().filter(CheckpointStats::completed)
                        .forEach(c -> series.add(x.applyAsDouble(c), y.applyAsDouble(c)));
            }
            collection.addSeries(series);
        }
        return collection;
    }

    /** Whole checkpoint numbers on the x axis, and a marker on every checkpoint. */
    private static JFreeChart byCheckpointNumber(JFreeChart chart) {
        XYPlot plot = chart.getXYPlot();
        ((NumberAxis) plot.getDomainAxis()).setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        plot.setRenderer(renderer);
        return chart;
    }

    private String save(String name, JFreeChart chart) throws IOException {
        chart.setBackgroundPaint(Color.WHITE);
        chart.getPlot().setBackgroundPaint(Color.WHITE);
        ChartUtils.saveChartAsPNG(directory.resolve(name).toFile(), chart, WIDTH, HEIGHT);
        return name;
    }
}
