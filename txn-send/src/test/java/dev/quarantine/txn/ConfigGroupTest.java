package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.stream.Collectors;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class ConfigGroupTest {

    @Test
    void numbersEachGroupsSettingsFromOneInTheOrderDefined() {
        ConfigDef def = new ConfigDef();
        new ConfigGroup(def, "A").define("a.one", ConfigDef.Type.INT, 1, ConfigDef.Range.atLeast(0),
                        ConfigDef.Importance.HIGH, "One.", ConfigDef.Width.SHORT, "One")
                .define("a.two", ConfigDef.Type.BOOLEAN, false, null, ConfigDef.Importance.LOW, "Two.",
                        ConfigDef.Width.SHORT, "Two");
        new ConfigGroup(def, "B").define("b.one", ConfigDef.Type.STRING, "", null, ConfigDef.Importance.LOW, "B.",
                ConfigDef.Width.LONG, "B one");

        Map<String, String> places = def.configKeys().values().stream().collect(Collectors.toMap(
                key -> key.name, key -> key.group + "#" + key.orderInGroup));

        assertThat(places).isEqualTo(Map.of("a.one", "A#1", "a.two", "A#2", "b.one", "B#1"));
        assertThat(def.configKeys().get("a.one").validator).isNotNull();
        assertThat(def.configKeys().get("b.one").displayName).isEqualTo("B one");
    }

    @Test
    void aCountIsAnIntFromOneToItsMaximumOfLowImportance() {
        ConfigDef def = new ConfigDef();
        new ConfigGroup(def, "A").count("a.max", 10, 100, "At most.", "Max");

        ConfigDef.ConfigKey key = def.configKeys().get("a.max");
        assertThat(key.type).isEqualTo(ConfigDef.Type.INT);
        assertThat(key.defaultValue).isEqualTo(10);
        assertThat(key.importance).isEqualTo(ConfigDef.Importance.LOW);
        assertThat(key.width).isEqualTo(ConfigDef.Width.SHORT);
        assertThat(key.group + "#" + key.orderInGroup).isEqualTo("A#1");
        key.validator.ensureValid("a.max", 1);
        key.validator.ensureValid("a.max", 100);
        assertThatThrownBy(() -> key.validator.ensureValid("a.max", 0)).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> key.validator.ensureValid("a.max", 101)).isInstanceOf(ConfigException.class);
    }
}
