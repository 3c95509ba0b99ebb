package dev.flinks3.transfer;

import java.util.Objects;

/**
 * A secret value (secret access key, session token, SSE-C key) that never shows itself in
 * {@link #toString()}, logs or exception messages. Only {@link #reveal()} gives the value, and only
 * code that hands it to the AWS SDK should call it.
 */
public final class Secret {

    private final String value;

    private Secret(String value) {
        this.value = Objects.requireNonNull(value, "value");
    }

    /** Wraps a value; returns {@code null} for {@code null} or an empty string. */
    public static Secret ofNullable(String value) {
        return value == null || value.isEmpty() ? null : new Secret(value);
    }

    /** The secret itself: pass it to the SDK, never to a log or message. */
    public String reveal() {
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Secret && ((Secret) o).value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    /** Always {@code ******}. */
    @Override
    public String toString() {
        return "******";
    }
}
