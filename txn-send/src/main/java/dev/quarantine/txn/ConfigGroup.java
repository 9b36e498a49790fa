package dev.quarantine.txn;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Validator;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * One group of a {@link ConfigDef}: defines its settings in the order called, numbering them within the group, each
 * with every field a generated config doc shows (type, default, validator, importance, doc, width, display name), and
 * a name for a kind of setting several configs have: {@link #count}.
 * Public so that the configs of this library, the sink, the monitor and the replay number their settings the same
 * way; users never call it.
 */
public final class ConfigGroup {

    private final ConfigDef def;
    private final String name;
    private int order;

    public ConfigGroup(ConfigDef def, String name) {
        this.def = def;
        this.name = name;
    }

    /** @param validator null for a setting whose type says all (a boolean, a free list) */
    public ConfigGroup define(String key, Type type, Object defaultValue, Validator validator, Importance importance,
                              String doc, Width width, String displayName) {
        def.define(key, type, defaultValue, validator, importance, doc, name, ++order, width, displayName);
        return this;
    }

    /** How many of something there may be at most, from 1 to {@code max}, of low importance. */
    public ConfigGroup count(String key, int defaultCount, int max, String doc, String displayName) {
        return define(key, Type.INT, defaultCount, Range.between(1, max), Importance.LOW, doc, Width.SHORT,
                displayName);
    }
}
