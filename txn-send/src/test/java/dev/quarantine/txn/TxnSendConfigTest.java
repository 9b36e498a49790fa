package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import dev.quarantine.sandbox.ConfigDocs;

class TxnSendConfigTest {

    @Test
    void committedConfigDocIsGeneratedFromTheConfigDef() throws Exception {
        ConfigDocs.assertCurrent(TxnSendConfig.configDef(), "txn-send.rst", TxnSendConfigTest.class);
    }

    @Test
    void rejectsAnUnknownDefaultOptionNamingTheSetting() {
        assertThatThrownBy(() -> new TxnSendConfig(Map.of(TxnSendConfig.DEFAULT_OPTION_CONFIG, "skip")))
                .isInstanceOf(ConfigException.class).hasMessageContaining(TxnSendConfig.DEFAULT_OPTION_CONFIG);
    }

    @Test
    void rejectsAMisspeltTxnSendSettingNamingIt() {
        assertThatThrownBy(() -> new TxnSendConfig(Map.of("txn.send.defualt.option", "IGNORE_SEND_ERRORS")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("txn.send.defualt.option")
                .hasMessageContaining(TxnSendConfig.DEFAULT_OPTION_CONFIG);
    }

    @Test
    void keepsOurSettingsAwayFromKafkaProducer() {
        assertThat(TxnSendConfig.withoutOurs(Map.of(TxnSendConfig.DEFAULT_OPTION_CONFIG, "NONE", "acks", "all")))
                .containsOnlyKeys("acks");
    }

    @Test
    void readsTheProducerDefaultsFromKafkasProducerConfig() {
        Map<String, Object> kafka = ProducerConfig.configDef().defaultValues();
        TxnSendConfig config = new TxnSendConfig(Map.of());

        assertThat(config.maxRequestSize()).isEqualTo(kafka.get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG));
        assertThat(config.bufferMemory()).isEqualTo(kafka.get(ProducerConfig.BUFFER_MEMORY_CONFIG));
        assertThat(config.maxBlock().toMillis()).isEqualTo(kafka.get(ProducerConfig.MAX_BLOCK_MS_CONFIG));
        assertThat(config.transactionalId()).isEmpty();
    }

    @Test
    void rejectsAProducerLimitKafkaWouldRejectNamingTheSetting() {
        assertThatThrownBy(() -> new TxnSendConfig(Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, "-1")))
                .isInstanceOf(ConfigException.class).hasMessageContaining(ProducerConfig.MAX_BLOCK_MS_CONFIG);
    }
}
