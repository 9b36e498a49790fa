package dev.quarantine.connect.rest.replays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.replay.ReplayConfig;

class ReplaySettingsTest {

    private static final ReplayDestinations DESTINATIONS = new ReplayDestinations("orders", "connect-.*");
    private static final Map<String, String> REQUESTED = Map.of("replay.destination", "original",
            ReplayConfig.DLQ_TOPIC_CONFIG, "other.dlq", ReplayConfig.REPLAY_ID_CONFIG, "chosen",
            ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, ".*", "bootstrap.servers", "elsewhere:9092");

    @Test
    void aRequestKeepsItsOwnSettingsButCannotSetTheConnectionTheDestinationsTheTopicOrTheId() {
        ReplaySettings settings = new ReplaySettings(Map.of("bootstrap.servers", "broker:9092"), DESTINATIONS);

        for (Map<String, String> built : List.of(settings.forConnector("orders.dlq", "replay-1", REQUESTED),
                settings.forOwnEngine("orders.dlq", "replay-1", REQUESTED))) {
            assertThat(built).containsOnly(Map.entry("replay.destination", "original"),
                    Map.entry("bootstrap.servers", "broker:9092"),
                    Map.entry(ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, "orders"),
                    Map.entry(ReplayConfig.DESTINATIONS_DENIED_CONFIG, "connect-.*"),
                    Map.entry(ReplayConfig.DLQ_TOPIC_CONFIG, "orders.dlq"),
                    Map.entry(ReplayConfig.REPLAY_ID_CONFIG, "replay-1"));
        }
    }

    @Test
    void onlyTheMonitorsOwnEngineGetsTheWorkersSecrets() {
        ReplaySettings settings = new ReplaySettings(Map.of("bootstrap.servers", "broker:9092",
                "security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN",
                "sasl.jaas.config", new Password("x required;")), DESTINATIONS);

        assertThat(settings.forOwnEngine("orders.dlq", "replay-1", Map.of()))
                .containsEntry("sasl.jaas.config", "x required;");
        assertThatThrownBy(() -> settings.forConnector("orders.dlq", "replay-1", Map.of()))
                .isInstanceOfSatisfying(MonitorException.class, e -> assertThat(e.status()).isEqualTo(501))
                .hasMessageContaining("sasl.jaas.config");
    }

    @Test
    void aSecretThePlaintextWorkersClientsDoNotUseIsWithheldFromTheConnectorWithoutRefusingIt() {
        ReplaySettings settings = new ReplaySettings(Map.of("bootstrap.servers", "broker:9092",
                "security.protocol", "PLAINTEXT", "ssl.truststore.password", new Password("changeit")),
                DESTINATIONS);

        assertThat(settings.forConnector("orders.dlq", "replay-1", Map.of()))
                .containsEntry("bootstrap.servers", "broker:9092")
                .doesNotContainKey("ssl.truststore.password")
                .doesNotContainValue("changeit");
        assertThat(settings.forOwnEngine("orders.dlq", "replay-1", Map.of()))
                .containsEntry("ssl.truststore.password", "changeit");
    }
}
