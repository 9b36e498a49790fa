package dev.quarantine.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.quarantine.connect.replay.DeadLetterReplayConnector;
import dev.quarantine.connect.rest.MonitorContract;
import dev.quarantine.connect.sink.TransactionalKafkaSinkConnector;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;

/** The names by which the monitor finds the sink's dead-letter topics and starts replays are the plugins' own. */
class PluginContractTest {

    @Test
    void theMonitorFindsTheSinksDeadLetterTopicByTheSinksOwnNames() {
        assertThat(MonitorContract.dlqTopics(Map.of(
                "connector.class", TransactionalKafkaSinkConnector.class.getName(),
                TransactionalSinkConfig.DLQ_TOPIC_NAME_CONFIG, "sink-dlq"))).containsExactly("sink-dlq");
    }

    @Test
    void theMonitorStartsReplaysWithTheReplayConnectorsOwnName() {
        assertThat(MonitorContract.replayConnectorClass()).isEqualTo(DeadLetterReplayConnector.class.getName());
    }
}
