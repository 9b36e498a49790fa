package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;

class KafkaVersionTest {

    @Test
    void parsesReleasesAndSnapshotsByMajorAndMinor() {
        assertThat(KafkaVersion.parse("4.2.1")).contains(new KafkaVersion(4, 2, "4.2.1"));
        assertThat(KafkaVersion.parse("4.3.0-SNAPSHOT")).hasValueSatisfying(v -> assertThat(v.minor()).isEqualTo(3));
        assertThat(KafkaVersion.parse("unknown")).isEmpty();
    }

    @Test
    void comparesByMajorThenMinor() {
        KafkaVersion v41 = KafkaVersion.parse("4.1.2").orElseThrow();

        assertThat(v41.isBefore(4, 2)).isTrue();
        assertThat(v41.isBefore(4, 1)).isFalse();
        assertThat(v41.isBefore(3, 9)).isFalse();
        assertThat(KafkaVersion.parse("3.9.2").orElseThrow().isBefore(4, 0)).isTrue();
        assertThat(KafkaVersion.parse("4.4.0").orElseThrow().isAfter(v41)).isTrue();
        assertThat(v41.isAfter(KafkaVersion.parse("4.1.0").orElseThrow())).isFalse();
    }

    @Test
    void readsTheVersionTheClientsJarStates() {
        assertThat(KafkaVersion.stated(KafkaProducer.class.getClassLoader(), KafkaVersion.CLIENTS_FILE))
                .hasValueSatisfying(v -> assertThat(KafkaVersion.parse(v)).isPresent());
        assertThat(KafkaVersion.stated(KafkaProducer.class.getClassLoader(), "kafka/no-such-version.properties"))
                .isEmpty();
    }
}
