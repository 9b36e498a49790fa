package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

class ReplayClientsTest {

    private static final ReplayConfig CONFIG = new ReplayConfig(Map.of("bootstrap.servers", "127.0.0.1:9092",
            ReplayConfig.DLQ_TOPIC_CONFIG, "orders.dlq", ReplayConfig.REPLAY_ID_CONFIG, "fix-1",
            ReplayConfig.BATCH_SIZE_CONFIG, "50", "security.protocol", "SSL", "txn.send.missing.topic.wait.ms", "0",
            "name", "a-connector"));

    @Test
    void theProducerIsTransactionalUnderTheReplayIdAndKeepsTxnSendSettings() {
        Map<String, Object> producer = ReplayClients.producerConfigs(CONFIG.clientConfigs(), CONFIG);

        assertThat(producer).containsEntry("transactional.id", "quarantine-replay-fix-1")
                .containsEntry("security.protocol", "SSL").containsEntry("txn.send.missing.topic.wait.ms", "0")
                .doesNotContainKeys("name", ReplayConfig.DLQ_TOPIC_CONFIG);
    }

    @Test
    void theConsumerReadsCommittedDataWithoutAGroupABatchAtATime() {
        Map<String, Object> consumer = ReplayClients.consumerConfigs(CONFIG.clientConfigs(), CONFIG);

        assertThat(consumer).containsEntry("isolation.level", "read_committed").containsEntry("max.poll.records", 50)
                .containsEntry("enable.auto.commit", false).containsEntry("security.protocol", "SSL")
                .doesNotContainKeys("group.id", "txn.send.missing.topic.wait.ms", "name");
    }
}
