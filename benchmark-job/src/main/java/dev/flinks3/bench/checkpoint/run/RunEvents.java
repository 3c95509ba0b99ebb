package dev.flinks3.bench.checkpoint.run;

import java.util.function.Consumer;

/**
 * What a run tells the outside while it goes: human-readable lines (checkpoints, progress) and phase
 * boundaries (so a parent process can attribute S3 requests to phases).
 */
public interface RunEvents {

    /** The checkpointing job is about to be submitted. */
    String CHECKPOINTING_START = "checkpointing-start";

    /** The checkpointing job is cancelled. */
    String CHECKPOINTING_END = "checkpointing-end";

    /** The restored job is about to be submitted. */
    String RESTORE_START = "restore-start";

    /** Every subtask of the restored job is RUNNING. */
    String RESTORE_RUNNING = "restore-running";

    /** One line for a person. */
    void line(String text);

    /** A phase boundary, one of the constants above. */
    void phase(String name);

    /** Events that go to two consumers: the lines, and the phase names. */
    static RunEvents of(Consumer<String> lines, Consumer<String> phases) {
        return new RunEvents() {
            @Override
            public void line(String text) {
                lines.accept(text);
            }

            @Override
            public void phase(String name) {
                phases.accept(name);
            }
        };
    }
}
