package dev.quarantine.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

import dev.quarantine.sandbox.ExampleConfigs;
import dev.quarantine.txn.TxnSendConfig;

/**
 * config/streams-app.properties parses against what reads it: Kafka's StreamsConfig, the handler's
 * DeadLetterHandlerConfig ({@code quarantine.*}) and, behind {@code producer.}, the supplier's TxnSendConfig.
 */
class StreamsExampleConfigTest {

    private static final String EXAMPLE = "streams-app.properties";

    // A deliberate parallel to the other *ExampleConfigTest classes (one a module): the shape is shared, the settings
    // each example is checked against are its own.
    @Test
    void everySettingOfTheExampleIsReadByStreamsTheHandlerOrTheSuppliersProducer() throws Exception {
        Map<String, String> example = ExampleConfigs.properties(EXAMPLE);

        assertThat(example.keySet()).as("settings of config/%s", EXAMPLE).isNotEmpty()
                .allSatisfy(key -> assertThat(isKnown(key)).as("%s is a setting someone reads", key).isTrue());
    }

    @Test
    void theExampleParsesAsAnExactlyOnceAppWithOurSupplierAndHandler() throws Exception {
        Map<String, String> example = ExampleConfigs.properties(EXAMPLE);

        StreamsConfig streams = new StreamsConfig(example);
        DeadLetterHandlerConfig handler = new DeadLetterHandlerConfig(example);
        TxnSendConfig producer = new TxnSendConfig(streams.originalsWithPrefix(StreamsConfig.PRODUCER_PREFIX));

        assertThat(streams.getString(StreamsConfig.PROCESSING_GUARANTEE_CONFIG))
                .isEqualTo(StreamsConfig.EXACTLY_ONCE_V2);
        assertThat(streams.getClass(StreamsConfig.DEFAULT_CLIENT_SUPPLIER_CONFIG))
                .isEqualTo(IgnoreSendErrorsClientSupplier.class);
        assertThat(streams.getClass(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG))
                .isEqualTo(DeadLetterProductionExceptionHandler.class);
        assertThat(streams.getString(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG)).isNotBlank();
        assertThat(handler.originals()).containsKey(DeadLetterHandlerConfig.DLQ_MAX_RATIO_CONFIG);
        assertThat(producer.topicMetadataMaxAge()).isPositive();
    }

    private static boolean isKnown(String key) {
        if (key.startsWith(StreamsConfig.PRODUCER_PREFIX)) {
            String producerKey = key.substring(StreamsConfig.PRODUCER_PREFIX.length());
            return ProducerConfig.configNames().contains(producerKey)
                    || TxnSendConfig.configDef().names().contains(producerKey);
        }
        return StreamsConfig.configDef().names().contains(key)
                || DeadLetterHandlerConfig.configDef().names().contains(key);
    }
}
