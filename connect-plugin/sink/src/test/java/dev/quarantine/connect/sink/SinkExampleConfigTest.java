package dev.quarantine.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.connect.runtime.ConnectorConfig;
import org.apache.kafka.connect.runtime.SinkConnectorConfig;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.config.ConfigRules;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.sandbox.ExampleConfigs;
import dev.quarantine.txn.TxnSendConfig;

/**
 * config/transactional-sink.json parses against what reads it: the worker's SinkConnectorConfig, our
 * TransactionalSinkConfig with its rules between settings, and behind their prefixes the target producer's and
 * admin client's settings and the worker consumer's overrides.
 */
class SinkExampleConfigTest {

    private static final String EXAMPLE = "transactional-sink.json";

    // A deliberate parallel to the other *ExampleConfigTest classes (one a module): the shape is shared, the settings
    // each example is checked against are its own.
    @Test
    void everySettingOfTheExampleIsReadByTheWorkerTheConnectorOrAClientBehindItsPrefix() throws Exception {
        Map<String, String> example = ExampleConfigs.connectorConfig(EXAMPLE);

        assertThat(example.keySet()).as("settings of config/%s", EXAMPLE).isNotEmpty()
                .allSatisfy(key -> assertThat(isKnown(key)).as("%s is a setting someone reads", key).isTrue());
    }

    @Test
    void theExampleParsesAndPassesTheRulesBetweenSettings() throws Exception {
        Map<String, String> example = ExampleConfigs.connectorConfig(EXAMPLE);

        Map<String, Object> worker = SinkConnectorConfig.configDef().parse(example);
        TransactionalSinkConfig sink = TransactionalSinkConfig.parse(example);

        assertThat(worker.get(ConnectorConfig.CONNECTOR_CLASS_CONFIG))
                .isEqualTo(TransactionalKafkaSinkConnector.class.getName());
        assertThat(ConfigRules.problems(sink)).as("problems the connector's validate() would report").isEmpty();
        assertThat(ConfigRules.sourceIsolationProblem(example)).as("the worker's consumer reads committed records")
                .isEmpty();
        assertThat(sink.tolerance()).isEqualTo(TransactionalSinkConfig.Tolerance.ALL);
        assertThat(sink.dlqTopic()).isPresent();
        assertThat(sink.producerConfigs()).containsKey(ProducerConfig.COMPRESSION_TYPE_CONFIG);
    }

    private static boolean isKnown(String key) {
        if (key.startsWith(TransactionalSinkConfig.TARGET_PRODUCER_PREFIX)) {
            String producerKey = key.substring(TransactionalSinkConfig.TARGET_PRODUCER_PREFIX.length());
            return ProducerConfig.configNames().contains(producerKey)
                    || TxnSendConfig.configDef().names().contains(producerKey);
        }
        if (key.startsWith(TransactionalSinkConfig.TARGET_ADMIN_PREFIX)) {
            return AdminClientConfig.configNames()
                    .contains(key.substring(TransactionalSinkConfig.TARGET_ADMIN_PREFIX.length()));
        }
        if (key.startsWith(ConnectorConfig.CONNECTOR_CLIENT_CONSUMER_OVERRIDES_PREFIX)) {
            return ConsumerConfig.configNames()
                    .contains(key.substring(ConnectorConfig.CONNECTOR_CLIENT_CONSUMER_OVERRIDES_PREFIX.length()));
        }
        return SinkConnectorConfig.configDef().names().contains(key)
                || TransactionalSinkConfig.configDef().names().contains(key);
    }
}
