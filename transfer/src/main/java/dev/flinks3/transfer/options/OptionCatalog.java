package dev.flinks3.transfer.options;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The options one catalog class declares, in declaration order: the class holds one catalog and declares each
 * option as a {@code public static final} constant with {@link #key}, after the catalog's own field. Filled while
 * the class initialises, read-only after.
 */
public final class OptionCatalog {

    private final List<Option<?>> options = new ArrayList<>();

    /** Starts the declaration of the option of {@code key}; its terminal method adds it here. */
    public Option.Builder key(String key) {
        return new Option.Builder(this, key);
    }

    /** @throws IllegalArgumentException if an option of the same key was declared here before */
    synchronized void add(Option<?> option) {
        for (Option<?> other : options) {
            if (other.key().equals(option.key())) {
                throw new IllegalArgumentException("option '" + option.key() + "' is declared twice");
            }
        }
        options.add(option);
    }

    /** Every option declared here, in declaration order. */
    public synchronized List<Option<?>> all() {
        return Collections.unmodifiableList(new ArrayList<>(options));
    }
}
