package dev.flinks3.bench.checkpoint.results;

import dev.flinks3.bench.checkpoint.job.JobParameters;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a benchmark was asked to do, enough to reproduce it.
 *
 * @param jobParameters the job's parameters by option name
 * @param keyCount keys the job uses
 * @param totalRecords records the source emits
 * @param expectedStateBytes value bytes once all records are processed
 * @param restoreParallelism parallelism of the restored job
 * @param s3Profile {@code lan}, {@code wan} or {@code external}
 * @param endpoint the S3 endpoint (the embedded server's address for lan and wan)
 * @param bucket the bucket checkpoints went to
 * @param rounds rounds over the contenders (order alternating)
 * @param contenders contender names in report order
 * @param command the command line that produced the results
 * @param serverSetup how the embedded S3 server ran (its cores, where it kept its objects), or {@code null}
 *     for an external endpoint or results written before it was recorded
 */
public record RunConfiguration(
        Map<String, String> jobParameters,
        int keyCount,
        long totalRecords,
        long expectedStateBytes,
        int restoreParallelism,
        String s3Profile,
        String endpoint,
        String bucket,
        int rounds,
        List<String> contenders,
        String command,
        String serverSetup) {

    /** The configuration of a run of {@code job}. */
    public static RunConfiguration of(
            JobParameters job,
            int restoreParallelism,
            String s3Profile,
            String endpoint,
            String bucket,
            int rounds,
            List<String> contenders,
            String command) {
        return new RunConfiguration(
                job.toMap(),
                job.keyCount(),
                job.totalRecords(),
                job.expectedStateBytes(),
                restoreParallelism,
                s3Profile,
                endpoint,
                bucket,
                rounds,
                contenders,
                command,
                null);
    }

    /** This configuration with {@code serverSetup}. */
    public RunConfiguration withServerSetup(String serverSetup) {
        return new RunConfiguration(
                jobParameters,
                keyCount,
                totalRecords,
                expectedStateBytes,
                restoreParallelism,
                s3Profile,
                endpoint,
                bucket,
                rounds,
                contenders,
                command,
                serverSetup);
    }

    public RunConfiguration {
        jobParameters = Collections.unmodifiableMap(new LinkedHashMap<>(jobParameters));
        contenders = List.copyOf(contenders);
    }
}
