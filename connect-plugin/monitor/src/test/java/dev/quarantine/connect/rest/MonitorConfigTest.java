package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;

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

        worker.put(MonitorConfig.PEER_SECRET_CONFIG, "sixteen-chars-or-more");
        MonitorConfig config = new MonitorConfig(worker);

        assertThat(config.peerSecret()).get().extracting(p -> p.value()).isEqualTo("sixteen-chars-or-more");
        assertThat(config.peerSecret().get().toString()).doesNotContain("sixteen");
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
