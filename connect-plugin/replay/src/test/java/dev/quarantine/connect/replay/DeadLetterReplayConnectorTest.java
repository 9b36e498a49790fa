package dev.quarantine.connect.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

import dev.quarantine.replay.ReplayConfig;

class DeadLetterReplayConnectorTest {

    private static Map<String, String> config(String... overrides) {
        Map<String, String> config = new HashMap<>(Map.of("name", "replay-orders", "bootstrap.servers",
                "127.0.0.1:9", "dlq.topic.name", "orders-dlq", ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "orders"));
        for (int i = 0; i < overrides.length; i += 2) {
            config.put(overrides[i], overrides[i + 1]);
        }
        return config;
    }

    @Test
    void runsOneTaskWhateverTasksMaxSaysWithTheConnectorsNameAsReplayId() {
        DeadLetterReplayConnector connector = new DeadLetterReplayConnector();
        connector.start(config());

        List<Map<String, String>> tasks = connector.taskConfigs(8);

        assertThat(tasks).hasSize(1);
        assertThat(tasks.get(0)).containsEntry(ReplayConfig.REPLAY_ID_CONFIG, "replay-orders");
    }

    @Test
    void keepsAnExplicitReplayId() {
        DeadLetterReplayConnector connector = new DeadLetterReplayConnector();
        connector.start(config(ReplayConfig.REPLAY_ID_CONFIG, "mine"));

        assertThat(connector.taskConfigs(1).get(0)).containsEntry(ReplayConfig.REPLAY_ID_CONFIG, "mine");
    }

    @Test
    void validateReportsARuleBetweenSettingsOnTheSettingItNames() {
        Map<String, ConfigValue> values = new HashMap<>();
        new DeadLetterReplayConnector().validate(config(ReplayConfig.DESTINATION_CONFIG, "orders-dlq"))
                .configValues().forEach(v -> values.put(v.name(), v));

        assertThat(values.get(ReplayConfig.DESTINATION_CONFIG).errorMessages()).singleElement().asString()
                .contains("must not be the dead-letter topic itself");
        assertThat(values.get(ReplayConfig.REPLAY_ID_CONFIG).errorMessages()).isEmpty();
    }

    @Test
    void refusesAHeaderChosenDestinationWithoutAnAllowListNamingTheSetting() {
        Map<String, String> config = config();
        config.remove(ReplayConfig.DESTINATIONS_ALLOWED_CONFIG);
        Map<String, ConfigValue> values = new HashMap<>();
        new DeadLetterReplayConnector().validate(config).configValues().forEach(v -> values.put(v.name(), v));

        assertThat(values.get(ReplayConfig.DESTINATIONS_ALLOWED_CONFIG).errorMessages()).singleElement().asString()
                .contains("dry run");
        assertThatThrownBy(() -> new DeadLetterReplayConnector().start(config)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(ReplayConfig.DESTINATIONS_ALLOWED_CONFIG);
        assertThat(new DeadLetterReplayConnector().validate(config(ReplayConfig.DESTINATION_CONFIG, "retry"))
                .configValues()).allSatisfy(v -> assertThat(v.errorMessages()).as(v.name()).isEmpty());
    }

    @Test
    void validateReportsANegativeSpeedLimitOnItsSettingAndAcceptsZeroAsNoLimit() {
        Map<String, ConfigValue> values = new HashMap<>();
        new DeadLetterReplayConnector().validate(config(ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG, "-1",
                ReplayConfig.MAX_BYTES_PER_SECOND_CONFIG, "-20")).configValues().forEach(v -> values.put(v.name(), v));

        assertThat(values.get(ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG).errorMessages()).singleElement().asString()
                .contains("must be 0 (no limit) or more");
        assertThat(values.get(ReplayConfig.MAX_BYTES_PER_SECOND_CONFIG).errorMessages()).singleElement().asString()
                .contains("must be 0 (no limit) or more");
        assertThat(values.get(ReplayConfig.DLQ_TOPIC_CONFIG).errorMessages()).isEmpty();
        assertThatThrownBy(() -> new DeadLetterReplayConnector().start(config(
                ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG, "-1"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining(ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG);

        assertThat(new DeadLetterReplayConnector().validate(config(ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG, "0",
                ReplayConfig.MAX_BYTES_PER_SECOND_CONFIG, "1048576")).configValues())
                .allSatisfy(v -> assertThat(v.errorMessages()).as(v.name()).isEmpty());
        DeadLetterReplayConnector limited = new DeadLetterReplayConnector();
        limited.start(config(ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG, "500"));
        assertThat(limited.taskConfigs(1).get(0)).containsEntry(ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG, "500");
    }

    @Test
    void validateReportsANamedDestinationThatIsKafkaInternal() {
        Map<String, ConfigValue> values = new HashMap<>();
        new DeadLetterReplayConnector().validate(config(ReplayConfig.DESTINATION_CONFIG, "__consumer_offsets"))
                .configValues().forEach(v -> values.put(v.name(), v));

        assertThat(values.get(ReplayConfig.DESTINATION_CONFIG).errorMessages()).singleElement().asString()
                .contains("Kafka-internal");
    }

    @Test
    void validateAcceptsAConfigWithoutReplayIdAndReportsAMissingTopic() {
        Map<String, ConfigValue> values = new HashMap<>();
        Map<String, String> config = config();
        new DeadLetterReplayConnector().validate(config).configValues().forEach(v -> values.put(v.name(), v));
        assertThat(values.values()).allSatisfy(v -> assertThat(v.errorMessages()).as(v.name()).isEmpty());

        config.remove("dlq.topic.name");
        values.clear();
        new DeadLetterReplayConnector().validate(config).configValues().forEach(v -> values.put(v.name(), v));
        assertThat(values.get("dlq.topic.name").errorMessages()).isNotEmpty();
    }
}
