package dev.quarantine.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;

import dev.quarantine.streams.DeadLetterProductionExceptionHandler;
import dev.quarantine.streams.IgnoreSendErrorsClientSupplier;

/**
 * On the kafka-streams version under test, enabling the handler or the supplier either starts (4.2 and later) or
 * fails at start-up with a message naming the version needed (older): never a handler that is silently not asked.
 */
class OlderKafkaStreamsTest {

    private static final String VERSION = System.getProperty("compat.kafka.version");
    private static final boolean SUPPORTED = !VERSION.matches("3\\..*|4\\.[01]\\..*");

    @Test
    void theClientSupplierStartsOrIsRefusedNamingTheVersionNeeded() {
        Properties props = props();
        props.put(StreamsConfig.DEFAULT_CLIENT_SUPPLIER_CONFIG, IgnoreSendErrorsClientSupplier.class.getName());

        assertStartsOrIsRefused(props, "IgnoreSendErrorsClientSupplier");
    }

    /** Kafka Streams creates the handler with each task: the test driver creates its task at once. */
    @Test
    void theProductionExceptionHandlerStartsOrIsRefusedNamingTheVersionNeeded() {
        Properties props = props();
        props.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG,
                DeadLetterProductionExceptionHandler.class.getName());

        assertStartsOrIsRefused(catchThrowable(() -> {
            try (TopologyTestDriver driver = new TopologyTestDriver(topology(), props)) {
                driver.producedTopicNames();
            }
        }), "DeadLetterProductionExceptionHandler");
    }

    private static void assertStartsOrIsRefused(Properties props, String plugin) {
        assertStartsOrIsRefused(catchThrowable(() -> {
            try (KafkaStreams streams = new KafkaStreams(topology(), props)) {
                streams.state();
            }
        }), plugin);
    }

    private static void assertStartsOrIsRefused(Throwable refusal, String plugin) {
        if (SUPPORTED) {
            assertThat(refusal).as("kafka-streams %s", VERSION).isNull();
        } else {
            assertThat(messages(refusal)).as("kafka-streams %s", VERSION).anySatisfy(message -> assertThat(message)
                    .contains(plugin + " needs kafka-streams 4.2 or later", "this app runs kafka-streams " + VERSION));
        }
    }

    private static List<String> messages(Throwable error) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = error; t != null; t = t.getCause()) {
            messages.add(String.valueOf(t.getMessage()));
        }
        return messages;
    }

    private static Topology topology() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in").to("out");
        return builder.build();
    }

    private static Properties props() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "older-kafka-streams-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        props.put("errors.dead.letter.queue.topic.name", "older-kafka-streams-dlq");
        return props;
    }
}
