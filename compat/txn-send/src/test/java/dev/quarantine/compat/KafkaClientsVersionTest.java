package dev.quarantine.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;

/** Guards the matrix itself: txn-send's tests here really run on the kafka-clients version under test. */
class KafkaClientsVersionTest {

    @Test
    void runsOnTheKafkaClientsVersionUnderTest() throws IOException {
        Properties version = new Properties();
        try (InputStream in = KafkaProducer.class.getResourceAsStream("/kafka/kafka-version.properties")) {
            assertThat(in).as("kafka-clients' version file").isNotNull();
            version.load(in);
        }

        assertThat(version.getProperty("version")).isEqualTo(System.getProperty("compat.kafka.clients.version"));
    }
}
