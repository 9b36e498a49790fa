package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

import dev.quarantine.sandbox.ExampleConfigs;

/** config/txn-send-producer.properties parses against Kafka's ProducerConfig and our TxnSendConfig. */
class ProducerExampleConfigTest {

    private static final String EXAMPLE = "txn-send-producer.properties";

    @Test
    void everySettingOfTheExampleIsAProducerOrTxnSendSetting() throws Exception {
        Map<String, String> example = ExampleConfigs.properties(EXAMPLE);

        assertThat(example.keySet()).as("settings of config/%s", EXAMPLE).isNotEmpty().allSatisfy(key ->
                assertThat(ProducerConfig.configNames().contains(key) || TxnSendConfig.configDef().names().contains(key))
                        .as("%s is a setting of ProducerConfig or TxnSendConfig", key).isTrue());
    }

    @Test
    void theExampleParsesAsAProducerThatLeavesPoisonOut() throws Exception {
        Map<String, String> example = ExampleConfigs.properties(EXAMPLE);

        TxnSendConfig ours = new TxnSendConfig(example);
        ProducerConfig kafkas = new ProducerConfig(TxnSendConfig.withoutOurs(example));

        assertThat(ours.defaultOption()).isEqualTo(TxnSendOption.IGNORE_SEND_ERRORS);
        assertThat(ours.topicChecksEnabled()).isTrue();
        assertThat(kafkas.getString(ProducerConfig.TRANSACTIONAL_ID_CONFIG)).isNotBlank();
    }
}
