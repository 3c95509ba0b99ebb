package dev.flinks3.transfer;

import java.util.HashMap;
import java.util.Map;

/**
 * The values of one settings part, by {@link Setting}: a builder holds one and changes it, a built part holds a
 * copy that nothing changes. Starts with every setting's default. Every value kept is immutable, so a copy shares
 * them. Not thread-safe while it changes.
 */
final class SettingValues {

    private final Setting.Group group;
    private final Map<Setting<?>, Object> values;

    /** The defaults of every setting of {@code group}. */
    SettingValues(Setting.Group group) {
        this.group = group;
        this.values = new HashMap<>();
        for (Setting<?> setting : group.settings()) {
            values.put(setting, setting.defaultValue());
        }
    }

    private SettingValues(SettingValues other) {
        this.group = other.group;
        this.values = new HashMap<>(other.values);
    }

    /** A copy that later changes of either do not reach. */
    SettingValues copy() {
        return new SettingValues(this);
    }

    /**
     * The value of {@code setting}; {@code null} for a setting that is unset.
     *
     * @throws IllegalArgumentException if {@code setting} is not a setting of this part
     */
    <T> T get(Setting<T> setting) {
        return setting.type().cast(values.get(own(setting)));
    }

    /**
     * Keeps {@code value}, as {@link Setting#check} returns it, for {@code setting}.
     *
     * @throws IllegalArgumentException if the value is not allowed (naming the setting, the value and what is
     *     allowed), or {@code setting} is not a setting of this part
     */
    <T> void set(Setting<T> setting, T value) {
        values.put(own(setting), setting.check(value));
    }

    private Setting<?> own(Setting<?> setting) {
        if (!values.containsKey(setting)) {
            throw new IllegalArgumentException(setting + " is not a setting of " + group.settings());
        }
        return setting;
    }

    /** {@code name=value, ...} in declaration order, leaving out unset settings; secrets show as {@code ******}. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (Setting<?> setting : group.settings()) {
            appendTo(text, setting);
        }
        return text.toString();
    }

    private <T> void appendTo(StringBuilder text, Setting<T> setting) {
        T value = get(setting);
        if (value != null) {
            text.append(text.length() == 0 ? "" : ", ")
                    .append(setting.name())
                    .append('=')
                    .append(setting.text(value));
        }
    }
}
