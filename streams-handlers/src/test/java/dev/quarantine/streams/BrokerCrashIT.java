package dev.quarantine.streams;

import static dev.quarantine.sandbox.Utf8.text;
import static dev.quarantine.streams.RunningApp.await;
import static dev.quarantine.streams.RunningApp.committed;
import static dev.quarantine.streams.RunningApp.header;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.txn.DeadLetterHeaders;

/**
 * The broker is killed with SIGKILL and restarted on the same data while an exactly_once_v2 app dead-letters poison
 * outputs: every good output is committed once, every poison output is dead-lettered once. The class has its own
 * broker, since it kills it.
 */
class BrokerCrashIT {

    private static final int INPUTS = 3000;
    private static final int OUTPUT_MAX_MESSAGE_BYTES = 50_000;

    private static LocalKafka kafka;

    @TempDir
    Path stateDir;

    @BeforeAll
    static void startBroker() {
        kafka = LocalKafka.create().start();
    }

    @AfterAll
    static void closeBroker() {
        kafka.close();
    }

    @Test
    void commitsEveryGoodOutputAndDeadLetterOnceAcrossABrokerKill() throws Exception {
        kafka.createTopic("crash-input", 2, Map.of());
        kafka.createTopic("crash-output", 2, Map.of("max.message.bytes", String.valueOf(OUTPUT_MAX_MESSAGE_BYTES)));
        kafka.createTopic("crash-dlq", 1, Map.of());
        RunningApp.produce(kafka, "crash-input", PoisonTopology.inputs(INPUTS));
        Properties props = RunningApp.exactlyOnceProps(kafka, "crash-app", stateDir.toString(), "crash-dlq");

        RunningApp app = RunningApp.start(topology(), props, StreamThreadExceptionResponse.REPLACE_THREAD);
        await("some outputs committed before the kill", () -> committed(kafka, "crash-output").size() >= 300);
        assertThat(committed(kafka, "crash-output").size()).as("the kill comes mid-run")
                .isLessThan(INPUTS - INPUTS / 100);
        kafka.kill();
        kafka.restart();
        await("every output and dead letter committed after the restart",
                () -> committed(kafka, "crash-output").size() + committed(kafka, "crash-dlq").size() >= INPUTS);
        await("the app running again", () -> app.streams().state() == KafkaStreams.State.RUNNING);
        app.close();

        assertThat(committed(kafka, "crash-output").stream().map(r -> text(r.value())))
                .as("no duplicates, nothing lost").hasSize(INPUTS - INPUTS / 100)
                .containsExactlyInAnyOrderElementsOf(PoisonTopology.goodOutputs(INPUTS));
        List<ConsumerRecord<byte[], byte[]>> deadLetters = committed(kafka, "crash-dlq");
        assertThat(deadLetters).hasSize(INPUTS / 100).allSatisfy(r -> {
            assertThat(header(r, DeadLetterHeaders.TARGET_TOPIC)).isEqualTo("crash-output");
            assertThat(header(r, DeadLetterHeaders.STREAMS_EXCEPTION))
                    .isEqualTo("org.apache.kafka.common.errors.RecordTooLargeException");
        });
        assertThat(deadLetters.stream().map(r -> header(r, DeadLetterHeaders.STREAMS_PARTITION) + "@"
                + header(r, DeadLetterHeaders.STREAMS_OFFSET))).as("one dead letter per poison input")
                .doesNotHaveDuplicates();
    }

    /** Inputs 50, 150, ... make outputs over the output topic's max.message.bytes; each input takes a little work. */
    private static Topology topology() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("crash-input", Consumed.with(Serdes.String(), Serdes.String()))
                .peek((key, value) -> work())
                .mapValues(value -> Integer.parseInt(value) % 100 == 50 ? "x".repeat(60_000) : "out-" + value)
                .to("crash-output", Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    /** Two milliseconds of work per input, so that the broker dies while the app is still processing. */
    private static void work() {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
