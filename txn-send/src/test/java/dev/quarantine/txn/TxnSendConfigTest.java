package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class TxnSendConfigTest {

    /** Run with -Dquarantine.docs.write=true to regenerate the committed doc. */
    private static final Path DOC = Path.of("..", "docs", "config", "txn-send.rst");

    @Test
    void committedConfigDocIsGeneratedFromTheConfigDef() throws Exception {
        String generated = TxnSendConfig.configDef().toEnrichedRst();
        if (Boolean.getBoolean("quarantine.docs.write")) {
            Files.createDirectories(DOC.getParent());
            Files.writeString(DOC, generated);
        }
        assertThat(DOC).as("docs/config/txn-send.rst is stale: run `mvn -pl txn-send test"
                + " -Dtest=TxnSendConfigTest -Dquarantine.docs.write=true`").exists();
        assertThat(Files.readString(DOC)).isEqualTo(generated);
    }

    @Test
    void rejectsAnUnknownDefaultOptionNamingTheSetting() {
        assertThatThrownBy(() -> new TxnSendConfig(Map.of(TxnSendConfig.DEFAULT_OPTION_CONFIG, "skip")))
                .isInstanceOf(ConfigException.class).hasMessageContaining(TxnSendConfig.DEFAULT_OPTION_CONFIG);
    }

    @Test
    void keepsOurSettingsAwayFromKafkaProducer() {
        assertThat(TxnSendConfig.withoutOurs(Map.of(TxnSendConfig.DEFAULT_OPTION_CONFIG, "NONE", "acks", "all")))
                .containsOnlyKeys("acks");
    }
}
