package dev.flinks3.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.DefaultRollingPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The FileSink job {@link ClusterFileSinkFailoverTest} submits through Flink's CLI: {@code records}
 * numbered lines ({@link #line}) at {@code recordsPerSecond} through {@link Ballast} into a row-format
 * {@link FileSink} at {@code output}, part files rolled at 32 MiB only (more than a subtask writes: one
 * part file per subtask, committed at the end), so in-progress files are persisted by the {@code
 * RecoverableWriter} across many checkpoints. Checkpointing, the checkpoint
 * directory and the restart strategy are the cluster's. Compiled against Flink 2.x and run on 1.20 too:
 * it uses only API both have.
 *
 * <p>Arguments: {@code output records recordsPerSecond}.
 */
public final class FileSinkJob {

    /** Bytes of one line, newline included: a few thousand records fill an S3 part of 5 MiB. */
    static final int LINE_BYTES = 1024;

    /** What {@link Ballast} logs after it checked restored state; the test looks for it in the TaskManagers' logs. */
    static final String RESTORED = "FileSinkJob ballast restored and verified: ";

    private FileSinkJob() {}

    /**
     * Submits the job.
     *
     * @param args {@code output records recordsPerSecond}
     */
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
                .map(new Ballast())
                .name("ballast")
                .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<String>())
                        .withRollingPolicy(DefaultRollingPolicy.builder()
                                .withMaxPartSize(MemorySize.ofMebiBytes(32))
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

    /**
     * Passes records on unchanged and keeps {@link #CHUNKS} chunks of 1 MiB in operator state, so that
     * every checkpoint writes a stream of several MiB per subtask: larger than an S3 part, so a
     * multipart upload under the checkpoint directory. Each chunk starts with its id and continues with
     * bytes that follow from the id; a restored chunk that does not fails the job, and a restore that
     * checked its chunks logs {@link #RESTORED} with their count.
     */
    static final class Ballast implements MapFunction<String, String>, CheckpointedFunction {

        private static final long serialVersionUID = 1L;
        static final int CHUNKS = 6;
        static final int CHUNK_BYTES = 1 << 20;
        private static final Logger LOG = LoggerFactory.getLogger(Ballast.class);

        private transient ListState<byte[]> state;
        private transient List<byte[]> chunks;

        @Override
        public String map(String value) {
            return value;
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) throws Exception {
            state.update(chunks);
        }

        @Override
        public void initializeState(FunctionInitializationContext context) throws Exception {
            state = context.getOperatorStateStore()
                    .getListState(new ListStateDescriptor<>(
                            "ballast", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
            chunks = new ArrayList<>();
            if (context.isRestored()) {
                for (byte[] chunk : state.get()) {
                    if (!Arrays.equals(chunk, chunk(id(chunk)))) {
                        throw new IllegalStateException("restored ballast chunk " + id(chunk) + " differs from what"
                                + " was checkpointed (" + chunk.length + " bytes)");
                    }
                    chunks.add(chunk);
                }
                LOG.info("{}{} chunks", RESTORED, chunks.size());
            }
            SplittableRandom ids = new SplittableRandom();
            while (chunks.size() < CHUNKS) {
                chunks.add(chunk(ids.nextLong()));
            }
        }

        private static long id(byte[] chunk) {
            long id = 0;
            for (int i = 0; i < Long.BYTES; i++) {
                id = (id << 8) | (chunk[i] & 0xff);
            }
            return id;
        }

        /** The chunk with {@code id}: the id's 8 bytes, then bytes of a generator seeded with it. */
        static byte[] chunk(long id) {
            byte[] chunk = new byte[CHUNK_BYTES];
            SplittableRandom random = new SplittableRandom(id);
            for (int i = Long.BYTES; i < chunk.length; i++) {
                chunk[i] = (byte) random.nextInt(256);
            }
            for (int i = 0; i < Long.BYTES; i++) {
                chunk[i] = (byte) (id >>> (56 - 8 * i));
            }
            return chunk;
        }
    }
}
