package dev.flinks3.it.faults;

import dev.flinks3.it.SharedS3ProxyTarget;
import java.util.Base64;
import java.util.Map;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem.WriteMode;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;

class ScratchSseTest {
    @Test
    void show() throws Exception {
        var server = SharedS3ProxyTarget.server();
        String key = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());
        for (Map<String, String> sse : new Map[] {Map.of("s3.sse.type", "sse-s3"), Map.of("s3.sse.type", "sse-kms", "s3.sse.kms.key-id", "alias/k", "s3.sse.kms.encryption-context", "a=b"), Map.of("s3.sse.type", "sse-c", "s3.sse.c.key", key)}) {
            try (FaultInjectingProxy proxy = new FaultInjectingProxy(server.endpoint());
                    ProxiedFileSystem fs = ProxiedFileSystem.create(proxy, Map.of("s3.upload.min.part.size", "5mb", "s3.retry.max-num-retries", "0"))) {
            }
            java.util.HashMap<String, String> opts = new java.util.HashMap<>(sse);
            opts.put("s3.upload.min.part.size", "5mb");
            opts.put("s3.retry.max-num-retries", "0");
            try (FaultInjectingProxy proxy = new FaultInjectingProxy(server.endpoint());
                    ProxiedFileSystem fs = ProxiedFileSystem.create(proxy, opts)) {
                for (int size : new int[] {1000, 6 * 1024 * 1024}) {
                    Path p = new Path("s3://flinks3-it/scratch-sse/" + sse.get("s3.sse.type") + size);
                    try (FSDataOutputStream out = fs.fs().create(p, WriteMode.OVERWRITE)) {
                        out.write(new byte[size]);
                        out.close();
                        try (var in = fs.fs().open(p)) {
                            System.out.println(sse + " " + size + " OK read " + in.readAllBytes().length + " status " + fs.fs().getFileStatus(p).getLen());
                        }
                    } catch (Exception e) {
                        System.out.println(sse + " " + size + " FAILED " + e.toString().substring(0, Math.min(400, e.toString().length())));
                    }
                }
            }
        }
    }
}
