package dev.quarantine.connect.rest;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Validator;
import org.apache.kafka.common.config.ConfigDef.Width;

import dev.quarantine.txn.ConfigGroup;

/**
 * One group of {@link MonitorConfig}'s settings, numbered within the group by the shared {@link ConfigGroup}, with
 * a name for the kind of setting only the monitor's groups repeat: a duration in milliseconds of the monitor's own
 * listeners and calls.
 */
final class MonitorConfigGroup {

    /** The shortest duration a {@link #durationMs} setting accepts. */
    private static final long MIN_DURATION_MS = 100L;

    private final ConfigGroup group;

    MonitorConfigGroup(ConfigDef def, String name) {
        this.group = new ConfigGroup(def, name);
    }

    /** @param validator null for a setting whose type says all (a boolean) */
    MonitorConfigGroup define(String key, Type type, Object defaultValue, Validator validator, Importance importance,
                              String doc, Width width, String displayName) {
        group.define(key, type, defaultValue, validator, importance, doc, width, displayName);
        return this;
    }

    /** A duration in milliseconds from 100 to {@code maxMs}, of low importance. */
    MonitorConfigGroup durationMs(String key, long defaultMs, long maxMs, String doc, String displayName) {
        return define(key, Type.LONG, defaultMs, Range.between(MIN_DURATION_MS, maxMs), Importance.LOW, doc,
                Width.SHORT, displayName);
    }

    /** @see ConfigGroup#count */
    MonitorConfigGroup count(String key, int defaultCount, int max, String doc, String displayName) {
        group.count(key, defaultCount, max, doc, displayName);
        return this;
    }
}
