package dev.quarantine.streams;

import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.TopicReader;

/**
 * A Streams app under test with its state transitions and uncaught exceptions recorded, and the helpers the
 * integration tests share (inputs, committed reads, headers, waits).
 */
record RunningApp(KafkaStreams streams, List<String> transitions, List<Throwable> uncaught) {

    static final Duration DEADLINE = Duration.ofSeconds(180);

    /** Starts the app; an uncaught exception gets {@code response} (Kafka's default is SHUTDOWN_CLIENT). */
    static RunningApp start(Topology topology, Properties props, StreamThreadExceptionResponse response)
            throws InterruptedException {
        KafkaStreams streams = new KafkaStreams(topology, props);
        RunningApp app = new RunningApp(streams, new CopyOnWriteArrayList<>(), new CopyOnWriteArrayList<>());
        streams.setStateListener((now, before) -> app.transitions.add(before + "->" + now));
        streams.setUncaughtExceptionHandler(e -> {
            app.uncaught.add(e);
            return response;
        });
        streams.start();
        await("the app to reach RUNNING", () -> streams.state() == KafkaStreams.State.RUNNING
                || streams.state() == KafkaStreams.State.ERROR);
        return app;
    }

    /** Properties every test app sets: exactly_once_v2, our supplier and handler, fast commits. */
    static Properties exactlyOnceProps(LocalKafka kafka, String applicationId, String stateDir, String deadLetters) {
        return StreamsTestProps.quarantined(kafka, applicationId, Path.of(stateDir), deadLetters);
    }

    void assertRanWithoutFailures() {
        assertThat(uncaught).as("uncaught exceptions (stream thread deaths)").isEmpty();
        assertThat(streams.state()).isEqualTo(KafkaStreams.State.RUNNING);
        assertThat(transitions).as("state transitions").containsExactly("CREATED->REBALANCING",
                "REBALANCING->RUNNING");
        assertThat(streams.metrics().entrySet()).as("tasks closed").noneSatisfy(metric -> {
            assertThat(metric.getKey().name()).isEqualTo("task-closed-total");
            assertThat((Double) metric.getValue().metricValue()).isPositive();
        });
    }

    /** The app's state, its transitions and the messages of its uncaught exceptions: what a failed wait saw. */
    String describe() {
        return "state " + streams.state() + ", transitions " + transitions + ", uncaught "
                + uncaught.stream().map(RunningApp::messages).toList();
    }

    /** Waits for the ERROR state and returns the one exception that took the app there. */
    Throwable awaitError() throws InterruptedException {
        await("the app to reach ERROR", () -> streams.state() == KafkaStreams.State.ERROR);
        assertThat(uncaught).as("uncaught exceptions").hasSize(1);
        return uncaught.get(0);
    }

    void close() {
        streams.close(Duration.ofSeconds(30));
    }

    static void produce(LocalKafka kafka, String topic, List<String[]> keysAndValues) {
        try (KafkaProducer<String, String> producer =
                     new KafkaProducer<>(kafka.clientProps(), new StringSerializer(), new StringSerializer())) {
            for (String[] kv : keysAndValues) {
                producer.send(new ProducerRecord<>(topic, kv[0], kv[1]));
            }
        }
    }

    static List<ConsumerRecord<byte[], byte[]>> committed(LocalKafka kafka, String topic) {
        return TopicReader.readCommitted(kafka, topic, Duration.ofSeconds(60));
    }

    static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : text(header.value());
    }

    /** The messages of {@code error} and its causes, one per line. */
    static String messages(Throwable error) {
        StringBuilder text = new StringBuilder();
        for (Throwable e = error; e != null; e = e.getCause()) {
            text.append(e.getClass().getName()).append(": ").append(e.getMessage()).append('\n');
        }
        return text.toString();
    }

    /** Whether {@code condition} holds within {@code timeout} (polled; a timeout is an answer, not a failure). */
    static boolean within(Duration timeout, BooleanSupplier condition) {
        try {
            Await.until("", timeout, condition);
            return true;
        } catch (AssertionError timedOut) {
            return false;
        }
    }

    /** {@link Await#until} with this class's {@link #DEADLINE}. */
    static void await(String what, BooleanSupplier condition) {
        Await.until(what, DEADLINE, condition);
    }
}
