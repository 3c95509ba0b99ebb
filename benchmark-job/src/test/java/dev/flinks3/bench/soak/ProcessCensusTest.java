package dev.flinks3.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** A process's threads by name pattern and connections by TCP state, in a column per moment. */
@Timeout(60)
class ProcessCensusTest {

    @Test
    void threadsOfOnePoolShareAPattern() {
        assertThat(ProcessCensus.pattern("flinks3-s3-blocking-read-2-30")).isEqualTo("flinks#-s#-blocking-read-#-#");
        assertThat(ProcessCensus.pattern("flinks3-s3-blocking-read-2-31")).isEqualTo("flinks#-s#-blocking-read-#-#");
    }

    @Test
    void flinksRpcDispatchersAreToldApart() {
        assertThat(SoakSampler.isRpcDispatcher("flink-pekko.actor.default-dispatcher-7"))
                .isTrue();
        assertThat(SoakSampler.isRpcDispatcher("flink-metrics-pekko.actor.internal-dispatcher-3"))
                .isTrue();
        assertThat(SoakSampler.isRpcDispatcher("flink-akka.actor.default-dispatcher-2"))
                .isTrue();
        assertThat(SoakSampler.isRpcDispatcher("flink-pekko.actor.supervisor-dispatcher-1"))
                .isTrue();
        assertThat(SoakSampler.isRpcDispatcher("flinks3-s3-blocking-read-2-3")).isFalse();
        assertThat(SoakSampler.isRpcDispatcher("injected-leak-4")).isFalse();
        assertThat(SoakSampler.isRpcDispatcher("flink-rest-server-netty-worker-thread-1"))
                .isFalse();
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void aNewThreadAndAConnectionShowInTheNextColumn(@TempDir Path tmp) throws Exception {
        SampledProcess self = new SampledProcess(
                "minicluster",
                0,
                ProcessHandle.current().pid(),
                ManagementFactory.getPlatformMBeanServer(),
                List.of(tmp));
        CountDownLatch end = new CountDownLatch(1);
        ProcessCensus census = new ProcessCensus();
        try (ServerSocket endpoint = new ServerSocket(0)) {
            census.take("before stop 1", List.of(self), endpoint.getLocalPort());
            Thread extra = new Thread(
                    () -> {
                        try {
                            end.await(30, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    },
                    "census-probe-7");
            extra.start();
            try (Socket connection = new Socket("127.0.0.1", endpoint.getLocalPort())) {
                census.take("end", List.of(self), endpoint.getLocalPort());
            } finally {
                end.countDown();
                extra.join();
            }
        }
        Path file = tmp.resolve("census.md");
        census.write(file);

        assertThat(Files.readAllLines(file))
                .contains(
                        "| | before stop 1 | end |",
                        "| `thread census-probe-#` |  | 1 |",
                        "| `connections ESTABLISHED` |  | 1 |");
    }
}
