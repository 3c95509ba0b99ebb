package dev.flinks3.bench.soak;

import dev.flinks3.bench.checkpoint.job.GeneratedRecord;
import dev.flinks3.bench.checkpoint.job.JobParameters;
import dev.flinks3.bench.checkpoint.job.RecordGenerator;
import dev.flinks3.bench.checkpoint.job.ValueDigest;

/**
 * The state the job must hold once every record was applied exactly once, computed here without Flink: each
 * key's first value, XOR-ed with the payload of every record for that key. XOR commutes, so the result does not
 * depend on the order records of one key arrive in; a record applied twice cancels itself, one lost is missing,
 * and either way the digest differs.
 *
 * @param keys keys holding a value
 * @param digest sum (mod 2^64) of {@link ValueDigest#of} over the keys, as the job's {@code stateDigest}
 */
public record ExpectedState(long keys, long digest) {

    /** Replays every record of {@code job} into {@code keyCount x valueSize} bytes of memory. */
    public static ExpectedState of(JobParameters job) {
        RecordGenerator generator = RecordGenerator.of(job);
        byte[][] values = new byte[job.keyCount()][];
        for (long index = 0; index < job.totalRecords(); index++) {
            GeneratedRecord record = generator.record(index);
            int key = (int) record.key;
            if (values[key] == null) {
                values[key] = generator.initialValue(record.key);
            }
            RecordGenerator.apply(record, values[key]);
        }
        long keys = 0;
        long digest = 0;
        for (int key = 0; key < values.length; key++) {
            if (values[key] != null) {
                keys++;
                digest += ValueDigest.of(key, values[key]);
            }
        }
        return new ExpectedState(keys, digest);
    }
}
