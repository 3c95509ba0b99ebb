package dev.flinks3.cluster;

import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.DefaultRollingPolicy;

/**
 * The FileSink job {@link ClusterFileSinkFailoverTest} submits through Flink's CLI: {@code records}
 * numbered lines ({@link #line}) at {@code recordsPerSecond} into a row-format {@link FileSink} at {@code
 * output}, part files rolled at 12 MiB only, so in-progress files are persisted by the {@code
 * RecoverableWriter} across many checkpoints. Checkpointing, the checkpoint directory and the restart
 * strategy are the cluster's.
 *
 * <p>Arguments: {@code output records recordsPerSecond}.
 */
public final class FileSinkJob {

    /** Bytes of one line, newline included: a few thousand records fill an S3 part of 5 MiB. */
    static final int LINE_BYTES = 1024;

    private FileSinkJob() {}

    public static void main(String[] args) throws Exception {
        Path output = new Path(args[0]);
        long records = Long.parseLong(args[1]);
        int recordsPerSecond = Integer.parseInt(args[2]);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.fromSource(
                        new DataGeneratorSource<>(
                                FileSinkJob::line,
                                records,
                                RateLimiterStrategy.perSecond(recordsPerSecond),
                                Types.STRING),
                        WatermarkStrategy.noWatermarks(),
                        "numbered records")
                .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<String>())
                        .withRollingPolicy(DefaultRollingPolicy.builder()
                                .withMaxPartSize(MemorySize.ofMebiBytes(12))
                                .withRolloverInterval(Duration.ofMinutes(10))
                                .withInactivityInterval(Duration.ofMinutes(10))
                                .build())
                        .build());
        env.execute("FileSink on s3:// under a TaskManager kill");
    }

    /** Record {@code number}: ten digits, a space, filler; the sink's encoder adds the newline. */
    static String line(long number) {
        return String.format("%010d %s", number, "x".repeat(LINE_BYTES - 12));
    }
}
