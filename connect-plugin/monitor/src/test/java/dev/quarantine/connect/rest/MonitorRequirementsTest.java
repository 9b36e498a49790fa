package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.quarantine.connect.rest.MonitorRequirements.Refusal;
import dev.quarantine.connect.rest.MonitorRequirements.Worker;

/** The rows of {@link MonitorRequirements}' table, one test each. */
class MonitorRequirementsTest {

    @Test
    void aConnect3WorkerIsRefused() {
        Optional<Refusal> refusal = MonitorRequirements.refusal(new Worker("3.9.2", false, Optional.of("3.9.2")));

        assertThat(refusal).hasValueSatisfying(r -> assertThat(r.reason()).contains(
                "needs Kafka Connect 4.0 or later (jakarta.ws.rs)", "runs Kafka 3.9.2 (javax.ws.rs)",
                "Upgrade the worker to Kafka Connect 4.0 or later", "rest.extension.classes"));
    }

    @Test
    void aWorkerWithoutKafkaStreamsIsToldToAddItsOwnVersion() {
        Optional<Refusal> refusal = MonitorRequirements.refusal(new Worker("4.2.1", true, Optional.empty()));

        assertThat(refusal).hasValueSatisfying(r -> assertThat(r.reason())
                .contains("needs kafka-streams in the worker's classpath", "Add kafka-streams-4.2.1.jar"));
    }

    @Test
    void aKafkaStreamsOlderThan40IsRefused() {
        Optional<Refusal> refusal = MonitorRequirements.refusal(new Worker("4.0.2", true, Optional.of("3.9.2")));

        assertThat(refusal).hasValueSatisfying(r -> assertThat(r.reason())
                .contains("needs kafka-streams 4.0 or later", "kafka-streams 3.9.2"));
    }

    @Test
    void aKafkaStreamsNewerThanTheWorkersClientsIsRefused() {
        Optional<Refusal> refusal = MonitorRequirements.refusal(new Worker("4.1.2", true, Optional.of("4.4.0")));

        assertThat(refusal).hasValueSatisfying(r -> assertThat(r.reason())
                .contains("kafka-clients 4.1.2 with kafka-streams 4.4.0", "kafka-streams-4.1.2.jar"));
    }

    @Test
    void theWorkersOwnKafkaStreamsFrom40OnRuns() {
        assertThat(MonitorRequirements.refusal(new Worker("4.0.2", true, Optional.of("4.0.2")))).isEmpty();
        assertThat(MonitorRequirements.refusal(new Worker("4.4.0", true, Optional.of("4.4.0")))).isEmpty();
        assertThat(MonitorRequirements.refusal(new Worker("4.4.0", true, Optional.of("4.3.1")))).isEmpty();
    }

    @Test
    void aKafkaStreamsOfUnknownVersionIsNotHeldAgainstTheWorker() {
        assertThat(MonitorRequirements.refusal(new Worker("4.4.0", true, Optional.of("unknown")))).isEmpty();
    }

    @Test
    void detectsJakartaAndTheKafkaStreamsVersionOfThisClasspath() {
        Worker worker = Worker.detect(MonitorRequirementsTest.class.getClassLoader());

        assertThat(worker.jakartaRest()).isTrue();
        assertThat(worker.streamsVersion()).contains(worker.kafkaVersion());
    }

    @Test
    void detectsAClasspathWithoutKafkaStreams() {
        ClassLoader withoutStreams = new ClassLoader(null) {
        };

        assertThat(Worker.detect(withoutStreams).streamsVersion()).isEmpty();
    }
}
