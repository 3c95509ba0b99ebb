package dev.flinks3.bench.soak.leak;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * A leak a test build of the plugin injects, named by the system property {@value #PROPERTY} of the JVM the plugin
 * runs in: {@code <what>-per-<when>}, what one of {@code fd} (a {@code /dev/null} stream never closed), {@code thread}
 * (a thread that never ends) or {@code connection} (a TCP connection to the S3 endpoint never closed), when one of
 * {@code checkpoint} (at each checkpoint's folder the JobManager makes) or {@code stop} (at each restore, which follows each
 * TaskManager stop). Without the property nothing leaks. Only {@link LeakingFileSystemFactory} reads it: the shipped
 * plugin has no such switch.
 */
enum InjectedLeak {
    NONE,
    FD,
    THREAD,
    CONNECTION;

    /** The system property that names the leak, e.g. {@code -Dflinks3.test.leak=fd-per-checkpoint}. */
    static final String PROPERTY = "flinks3.test.leak";

    /** What was leaked, held so nothing is collected (a stream's cleaner would close it). */
    private static final List<Object> HELD = new CopyOnWriteArrayList<>();

    /** When the leak happens. */
    enum When {
        CHECKPOINT,
        STOP
    }

    /** The leak and its moment the property names; {@link #NONE} without it. */
    static InjectedLeak named() {
        String value = System.getProperty(PROPERTY, "").trim().toLowerCase(Locale.ROOT);
        if (value.isEmpty()) {
            return NONE;
        }
        return valueOf(value.substring(0, value.indexOf("-per-")).toUpperCase(Locale.ROOT));
    }

    /** The moment the property names, or null without it. */
    static When when() {
        String value = System.getProperty(PROPERTY, "").trim().toLowerCase(Locale.ROOT);
        return value.isEmpty()
                ? null
                : When.valueOf(value.substring(value.indexOf("-per-") + 5).toUpperCase(Locale.ROOT));
    }

    /**
     * Leaks one of its kind.
     *
     * @param endpoint the S3 endpoint, for a connection
     */
    void leakOne(URI endpoint) {
        try {
            switch (this) {
                case FD -> HELD.add(new FileInputStream("/dev/null"));
                case THREAD -> {
                    Thread thread = new Thread(
                            () -> {
                                while (true) {
                                    LockSupport.park();
                                }
                            },
                            "injected-leak-" + HELD.size());
                    thread.setDaemon(true);
                    thread.start();
                    HELD.add(thread);
                }
                case CONNECTION -> HELD.add(new Socket(endpoint.getHost(), endpoint.getPort()));
                case NONE -> {}
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the injected leak failed", e);
        }
    }
}
