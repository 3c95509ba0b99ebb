package dev.flinks3.transfer.sdk;

import dev.flinks3.transfer.aws.SseDecorator;
import java.util.Objects;
import software.amazon.awssdk.transfer.s3.S3TransferManager;

/**
 * Which engine carries the requests of one S3 client configuration, chosen once by {@link S3ClientOwner}
 * from {@code s3.client}: the plugin's own engines on the SDK's S3 client ({@code sdk}), or, with {@code crt},
 * the S3 Transfer Manager on the CRT-based S3 client for what it does (streams of unknown length, bulk
 * downloads) beside the plugin's engines on that client. Whoever builds on the engine asks it with a {@link
 * Choice} and gets the branch of the engine chosen, so nothing downstream decides again or tests for a
 * missing Transfer Manager. Immutable and thread-safe.
 */
public abstract class Engine {

    /**
     * What to build on each engine.
     *
     * @param <T> what is built
     */
    public interface Choice<T> {
        /** On the SDK's S3 client: the plugin's engines carry every request. */
        T sdk();

        /**
         * On the CRT-based S3 client.
         *
         * @param transferManager the Transfer Manager on it; owned by the {@link S3ClientOwner}
         * @param sse the encryption headers of the configuration, for the requests the Transfer Manager sends
         */
        T crt(S3TransferManager transferManager, SseDecorator sse);
    }

    private Engine() {}

    /** The branch of {@code choice} for this engine. */
    public abstract <T> T choose(Choice<T> choice);

    static Engine sdk() {
        return new Engine() {
            @Override
            public <T> T choose(Choice<T> choice) {
                return choice.sdk();
            }

            @Override
            public String toString() {
                return "sdk";
            }
        };
    }

    static Engine crt(S3TransferManager transferManager, SseDecorator sse) {
        Objects.requireNonNull(transferManager, "transferManager");
        Objects.requireNonNull(sse, "sse");
        return new Engine() {
            @Override
            public <T> T choose(Choice<T> choice) {
                return choice.crt(transferManager, sse);
            }

            @Override
            public String toString() {
                return "crt";
            }
        };
    }
}
