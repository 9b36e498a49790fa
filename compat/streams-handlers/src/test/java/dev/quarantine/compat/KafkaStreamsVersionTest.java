package dev.quarantine.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;

/** Guards the matrix itself: streams-handlers' tests here really run on the Kafka version under test. */
class KafkaStreamsVersionTest {

    @Test
    void runsOnTheKafkaStreamsAndClientsVersionUnderTest() throws IOException {
        String expected = System.getProperty("compat.kafka.version");

        assertThat(version(KafkaProducer.class)).as("kafka-clients").isEqualTo(expected);
        assertThat(KafkaStreams.class.getProtectionDomain().getCodeSource().getLocation().getPath())
                .as("kafka-streams jar").endsWith("kafka-streams-" + expected + ".jar");
    }

    private static String version(Class<?> fromJar) throws IOException {
        Properties version = new Properties();
        try (InputStream in = fromJar.getResourceAsStream("/kafka/kafka-version.properties")) {
            assertThat(in).as("version file of %s's jar", fromJar.getSimpleName()).isNotNull();
            version.load(in);
        }
        return version.getProperty("version");
    }
}
