package dev.flinks3.it.migration;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.Collector;

/**
 * A keyed job whose state is checked against its source: {@value #RECORDS} numbered records over {@value
 * #KEYS} keys ({@code n % KEYS}); each key keeps its count, the sum of its numbers and a payload of {@value
 * #PAYLOAD_BYTES} bytes drawn from the key (so its state spans real files of RocksDB or ForSt), and checks the
 * payload on every record. When a key's count reaches its share of the records, the key's sum is recorded, once.
 * A run cut short by a checkpoint and a restore must end with every key recorded exactly once with the sum of
 * its numbers: lost state leaves a key short, doubled state counts it past its share. The records live in this
 * JVM (the MiniCluster runs here).
 */
final class CountingState {

    static final int KEYS = 200;
    static final long RECORDS = 12_000;
    static final int PAYLOAD_BYTES = 2048;

    /** Sum of each completed key's numbers. */
    static final Map<Long, Long> COMPLETED = new ConcurrentHashMap<>();

    static final List<String> ERRORS = new CopyOnWriteArrayList<>();
    static final AtomicLong PROCESSED = new AtomicLong();

    private CountingState() {}

    static void reset() {
        COMPLETED.clear();
        ERRORS.clear();
        PROCESSED.set(0);
    }

    /**
     * Adds the job to {@code env}.
     *
     * @param recordsPerSecond the source's rate; 0 for as fast as it goes
     */
    static void addTo(StreamExecutionEnvironment env, double recordsPerSecond) {
        RateLimiterStrategy<?> rate =
                recordsPerSecond > 0 ? RateLimiterStrategy.perSecond(recordsPerSecond) : RateLimiterStrategy.noOp();
        env.fromSource(
                        new DataGeneratorSource<>(n -> n, RECORDS, rate, Types.LONG),
                        WatermarkStrategy.noWatermarks(),
                        "numbered records")
                .uid("records")
                .keyBy(n -> n % KEYS, Types.LONG)
                .process(new Counter())
                .uid("counter")
                .sinkTo(new DiscardingSink<>())
                .uid("discard");
    }

    /** Every key completed once, with the sum of its numbers, and nothing found wrong on the way. */
    static void assertRestoredStateMatchesTheSource(String what) {
        assertThat(ERRORS).as("state errors of %s", what).isEmpty();
        assertThat(COMPLETED).as("keys completed by %s", what).hasSize(KEYS);
        long share = RECORDS / KEYS;
        COMPLETED.forEach((key, sum) -> assertThat(sum)
                .as("sum of key %d after %s", key, what)
                .isEqualTo(share * key + KEYS * share * (share - 1) / 2));
    }

    static byte[] payloadOf(long key) {
        byte[] payload = new byte[PAYLOAD_BYTES];
        new SplittableRandom(key).nextBytes(payload);
        return payload;
    }

    private static final class Counter extends KeyedProcessFunction<Long, Long, Long> {

        private transient ValueState<Long> count;
        private transient ValueState<Long> sum;
        private transient ValueState<byte[]> payload;

        @Override
        public void open(OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
            sum = getRuntimeContext().getState(new ValueStateDescriptor<>("sum", Types.LONG));
            payload = getRuntimeContext()
                    .getState(new ValueStateDescriptor<>(
                            "payload", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        }

        @Override
        public void processElement(Long number, Context context, Collector<Long> out) throws Exception {
            long key = context.getCurrentKey();
            long counted = count.value() == null ? 0 : count.value();
            byte[] expected = payloadOf(key);
            byte[] stored = payload.value();
            if (stored == null) {
                if (counted > 0) {
                    ERRORS.add("key " + key + " lost its payload after " + counted + " records");
                }
                payload.update(expected);
            } else if (!Arrays.equals(stored, expected)) {
                ERRORS.add("key " + key + " has another payload after " + counted + " records");
            }
            counted++;
            long summed = (sum.value() == null ? 0 : sum.value()) + number;
            count.update(counted);
            sum.update(summed);
            PROCESSED.incrementAndGet();
            long share = RECORDS / KEYS;
            if (counted == share && COMPLETED.putIfAbsent(key, summed) != null) {
                ERRORS.add("key " + key + " completed twice");
            } else if (counted > share) {
                ERRORS.add("key " + key + " counted " + counted + " records of " + share);
            }
            out.collect(number);
        }
    }
}
