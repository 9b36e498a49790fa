package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Collectors;

import org.apache.kafka.common.config.ConfigDef;
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
}
