package dev.flinks3.bench.fsbench.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class StreamWritesTest {

    @Test
    void aStreamOnAnotherSchemeKeepsBucketAndKey() {
        Path onS3 = new Path("s3://bucket-1/fsbench/streams/s-1");

        assertThat(StreamWrites.onScheme(onS3, "s3a")).hasToString("s3a://bucket-1/fsbench/streams/s-1");
        assertThat(StreamWrites.onScheme(onS3, "s3")).isSameAs(onS3);
        assertThat(StreamWrites.onScheme(onS3, null)).isSameAs(onS3);
    }
}
