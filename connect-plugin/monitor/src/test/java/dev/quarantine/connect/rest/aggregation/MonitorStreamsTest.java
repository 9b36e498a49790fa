package dev.quarantine.connect.rest.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.WorkerSettings;

/** The Kafka Streams settings of the monitor's aggregation, as derived from the worker's and the monitor's. */
class MonitorStreamsTest {

    @Test
    void boundsTheProducersBlockingCallsWellBelowKafkasMinuteUnlessTheStreamsSettingsSayOtherwise() {
        assertThat(properties(Map.of()).get("producer.max.block.ms")).isEqualTo(15_000);
        assertThat(properties(Map.of(MonitorConfig.STREAMS_PREFIX + "producer.max.block.ms", "40000"))
                .get("producer.max.block.ms")).isEqualTo("40000");
    }

    @Test
    void skipsOnlyWhatARecordCausedAndFailsTheTaskOnKafkasFailures() {
        assertThat(properties(Map.of()).get("processing.exception.handler")).isEqualTo(RecordFaultsOnly.class);
    }

    private static Properties properties(Map<String, String> monitorSettings) {
        Map<String, Object> settings = new HashMap<>(Map.of("group.id", "connect-cluster", "bootstrap.servers",
                "127.0.0.1:9092", "listeners", "http://127.0.0.1:8083"));
        settings.putAll(monitorSettings);
        MonitorConfig config = new MonitorConfig(settings);
        return MonitorStreams.properties(config, WorkerSettings.from(settings, config), "app", Path.of("state"));
    }
}
