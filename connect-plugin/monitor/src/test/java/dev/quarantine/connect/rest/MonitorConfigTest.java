package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import dev.quarantine.sandbox.ConfigDocs;

class MonitorConfigTest {

    @Test
    void committedConfigDocIsGeneratedFromTheConfigDef() throws Exception {
        ConfigDocs.assertCurrent(MonitorConfig.configDef(), "rest-extension.rst", MonitorConfigTest.class);
    }

    @Test
    void derivesTheApplicationIdAndServerFromTheWorkersGroupAndAdvertisedAddress() {
        Map<String, Object> worker = worker();
        WorkerSettings settings = WorkerSettings.from(worker, new MonitorConfig(worker));

        assertThat(settings.applicationId()).isEqualTo("connect-cluster-dead-letter-monitor");
        assertThat(settings.selfUrl()).isEqualTo("http://10.0.0.7:8083");
        assertThat(settings.clientConfigs()).containsEntry("bootstrap.servers", "broker:9092")
                .containsEntry("security.protocol", "SASL_SSL").doesNotContainKey("group.id");
    }

    @Test
    void advertisedListenerWinsOverTheListenersScheme() {
        Map<String, Object> worker = worker();
        worker.remove("rest.advertised.host.name");
        worker.remove("rest.advertised.port");
        worker.put("listeners", "https://127.0.0.1:8443,http://127.0.0.1:8083");

        assertThat(WorkerSettings.from(worker, new MonitorConfig(worker)).selfUrl())
                .isEqualTo("https://127.0.0.1:8443");
    }

    @Test
    void refusesAWorkerWhoseRestPortIsUnknown() {
        Map<String, Object> worker = worker();
        worker.remove("rest.advertised.port");
        worker.put("listeners", "http://127.0.0.1:0");

        assertThatThrownBy(() -> WorkerSettings.from(worker, new MonitorConfig(worker)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("rest.advertised.port");
    }

    @Test
    void refusesAnInvalidTopicPatternNamingTheSetting() {
        Map<String, Object> worker = worker();
        worker.put(MonitorConfig.TOPICS_REGEX_CONFIG, "(.*-dlq");

        assertThatThrownBy(() -> new MonitorConfig(worker)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(MonitorConfig.TOPICS_REGEX_CONFIG);
    }

    @Test
    void defaultTopicPatternMatchesTheUsualDeadLetterNamesOnly() {
        Pattern pattern = new MonitorConfig(worker()).topicsRegex().orElseThrow();

        for (String topic : new String[] {"orders-dlt", "orders-dlq", "orders.dlq", "dlq.orders"}) {
            assertThat(pattern.matcher(topic).matches()).as(topic).isTrue();
        }
        for (String topic : new String[] {"orders", "dlq", "-dlt", "orders-dlt-x", "dlqorders", "__consumer_offsets"}) {
            assertThat(pattern.matcher(topic).matches()).as(topic).isFalse();
        }
    }

    @Test
    void refusesAShortPeerSecretWithoutShowingIt() {
        Map<String, Object> worker = worker();
        worker.put(MonitorConfig.PEER_SECRET_CONFIG, "short-secret");

        assertThatThrownBy(() -> new MonitorConfig(worker)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(MonitorConfig.PEER_SECRET_CONFIG).hasMessageNotContaining("short-secret");
    }

    @Test
    void hasNoPeerSecretUnlessSetAndKeepsItAsAPassword() {
        Map<String, Object> worker = worker();
        assertThat(new MonitorConfig(worker).peerSecret()).isEmpty();

        worker.put(MonitorConfig.PEER_SECRET_CONFIG, "thirty-two-characters-or-more-0123456789-bdfgjklnpquvxz");
        MonitorConfig config = new MonitorConfig(worker);

        assertThat(config.peerSecret()).get().extracting(p -> p.value()).isEqualTo(
                "thirty-two-characters-or-more-0123456789-bdfgjklnpquvxz");
        assertThat(config.peerSecret().get().toString()).doesNotContain("thirty");
    }

    @Test
    void refusesAPeerSecretWeakerThan32RandomBytesEncodedNamingTheSettingButNotTheValue() {
        for (String secret : new String[] {"0123456789abcdef0123456789abcde", "abababababababababababababababababab",
                "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "abcdefgh".repeat(4), "kafka-connect-peer-secret-prod-01",
                "0123456789abcdef".repeat(2)}) {
            Map<String, Object> worker = worker();
            worker.put(MonitorConfig.PEER_SECRET_CONFIG, secret);

            assertThatThrownBy(() -> new MonitorConfig(worker)).as(secret).isInstanceOf(ConfigException.class)
                    .hasMessageContaining(MonitorConfig.PEER_SECRET_CONFIG).hasMessageContaining("32 random bytes")
                    .hasMessageNotContaining(secret);
        }
        for (String secret : new String[] {"Zk3q9T1vXbN0pL7wR2cY8mH5sJ4dF6gA1eU0oI3nQ4k=",
                "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}) {
            Map<String, Object> worker = worker();
            worker.put(MonitorConfig.PEER_SECRET_CONFIG, secret);
            assertThat(new MonitorConfig(worker).peerSecret()).as("32 random bytes in base64 / hex").isPresent();
        }
    }


    @Test
    void peerListenerSettingsHaveSaneDefaultsAndRefuseNonsenseNamingTheSetting() {
        MonitorConfig defaults = new MonitorConfig(worker());
        assertThat(defaults.peerBindAddress()).isEmpty();
        assertThat(defaults.peerLimits().maxConnections()).isEqualTo(256);
        assertThat(defaults.peerLimits().maxConnectionsPerAddress()).isEqualTo(32);
        assertThat(defaults.peerLimits().headTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(defaults.peerLimits().idleTimeout()).isEqualTo(Duration.ofSeconds(30));

        for (String[] bad : new String[][] {{MonitorConfig.PEER_BIND_ADDRESS_CONFIG, "10.0.0.7:8083"},
                {MonitorConfig.PEER_BIND_ADDRESS_CONFIG, "http://10.0.0.7"},
                {MonitorConfig.PEER_MAX_CONNECTIONS_CONFIG, "0"},
                {MonitorConfig.PEER_MAX_CONNECTIONS_PER_ADDRESS_CONFIG, "0"},
                {MonitorConfig.PEER_HEADER_TIMEOUT_MS_CONFIG, "0"},
                {MonitorConfig.PEER_IDLE_TIMEOUT_MS_CONFIG, "-1"}}) {
            Map<String, Object> worker = worker();
            worker.put(bad[0], bad[1]);
            assertThatThrownBy(() -> new MonitorConfig(worker)).as(bad[0] + "=" + bad[1])
                    .isInstanceOf(ConfigException.class).hasMessageContaining(bad[0]);
        }
        Map<String, Object> worker = worker();
        worker.put(MonitorConfig.PEER_BIND_ADDRESS_CONFIG, "fe80::1%eth0");
        assertThat(new MonitorConfig(worker).peerBindAddress()).contains("fe80::1%eth0");
    }

    @Test
    void passesPrefixedStreamsSettingsWithoutThePrefix() {
        Map<String, Object> worker = worker();
        worker.put("quarantine.monitor.streams.num.standby.replicas", "1");

        assertThat(new MonitorConfig(worker).streamsOverrides()).containsEntry("num.standby.replicas", "1");
        assertThat(new MonitorConfig(worker).exposePayload()).isFalse();
    }

    private static Map<String, Object> worker() {
        Map<String, Object> worker = new HashMap<>();
        worker.put("group.id", "connect-cluster");
        worker.put("bootstrap.servers", "broker:9092");
        worker.put("security.protocol", "SASL_SSL");
        worker.put("listeners", "http://0.0.0.0:8083");
        worker.put("rest.advertised.host.name", "10.0.0.7");
        worker.put("rest.advertised.port", "8083");
        return worker;
    }
}
