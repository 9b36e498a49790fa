package dev.quarantine.streams;

import static dev.quarantine.sandbox.Utf8.text;
import static dev.quarantine.streams.RunningApp.await;
import static dev.quarantine.streams.RunningApp.committed;
import static dev.quarantine.streams.RunningApp.header;
import static dev.quarantine.streams.RunningApp.messages;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.txn.DeadLetterHeaders;

/**
 * Dead letters within the limits of the producer the supplier built, and a dead-letter topic that is missing: real
 * exactly_once_v2 apps configured by properties alone.
 */
@ExtendWith(LocalKafkaExtension.class)
class DeadLetterLimitsIT {

    private static final int INPUTS = 1000;
    private static final int PRODUCER_MAX_REQUEST_SIZE = 100_000;

    @TempDir
    Path stateDir;

    @Test
    void deadLettersFitALoweredProducerMaxRequestSizeWithoutAThreadDeath(LocalKafka kafka) throws Exception {
        Topics topics = new Topics("limits");
        topics.create(kafka, true);
        RunningApp.produce(kafka, topics.input, PoisonTopology.inputs(INPUTS));
        Properties props = RunningApp.exactlyOnceProps(kafka, "limits-app", stateDir.toString(), topics.deadLetters);
        props.put(StreamsConfig.producerPrefix("max.request.size"), PRODUCER_MAX_REQUEST_SIZE);

        RunningApp app = RunningApp.start(topology(topics), props, StreamThreadExceptionResponse.REPLACE_THREAD);
        await("990 outputs and 10 dead letters committed", () -> committed(kafka, topics.output).size() >= 990
                && committed(kafka, topics.deadLetters).size() >= 10);
        app.assertRanWithoutFailures();
        app.close();

        assertThat(committed(kafka, topics.output).stream().map(r -> text(r.value())))
                .as("no duplicates, nothing lost").hasSize(990).containsExactlyInAnyOrderElementsOf(PoisonTopology.goodOutputs(INPUTS));
        List<ConsumerRecord<byte[], byte[]>> deadLetters = committed(kafka, topics.deadLetters);
        assertThat(deadLetters).hasSize(10).allSatisfy(r -> {
            assertThat(r.serializedValueSize()).isLessThan(PRODUCER_MAX_REQUEST_SIZE);
            assertThat(header(r, DeadLetterHeaders.PAYLOAD_TRUNCATED)).isEqualTo("value");
            assertThat(Integer.parseInt(header(r, DeadLetterHeaders.ORIGINAL_SIZE))).isGreaterThan(200_000);
            assertThat(header(r, DeadLetterHeaders.TARGET_TOPIC)).isEqualTo(topics.output);
            assertThat(header(r, DeadLetterHeaders.STREAMS_EXCEPTION))
                    .isEqualTo("org.apache.kafka.common.errors.RecordTooLargeException");
        });
        assertThat(deadLetters.stream().map(r -> Long.parseLong(header(r, DeadLetterHeaders.STREAMS_OFFSET))))
                .as("one dead letter per poison input").doesNotHaveDuplicates();
    }

    @Test
    void deadLettersFitTheDeadLetterTopicsMaxMessageBytesAndFailOnlyWhenNotEvenAMinimalOneFits(LocalKafka kafka)
            throws Exception {
        Topics fits = new Topics("small-dlq");
        fits.create(kafka, false);
        kafka.createTopic(fits.deadLetters, 1, Map.of("max.message.bytes", "5000"));
        Topics tooSmall = new Topics("tiny-dlq");
        tooSmall.create(kafka, false);
        kafka.createTopic(tooSmall.deadLetters, 1, Map.of("max.message.bytes", "500"));
        RunningApp.produce(kafka, fits.input, PoisonTopology.inputs(INPUTS));
        RunningApp.produce(kafka, tooSmall.input, PoisonTopology.inputs(INPUTS));

        RunningApp small = RunningApp.start(topology(fits), limitedProps(kafka, "small-dlq-app", fits),
                StreamThreadExceptionResponse.REPLACE_THREAD);
        await("990 outputs and 10 dead letters committed", () -> committed(kafka, fits.output).size() >= 990
                && committed(kafka, fits.deadLetters).size() >= 10);
        small.assertRanWithoutFailures();
        small.close();
        assertThat(committed(kafka, fits.deadLetters)).hasSize(10).allSatisfy(r -> {
            assertThat(r.serializedValueSize()).isLessThan(5000);
            assertThat(header(r, DeadLetterHeaders.PAYLOAD_TRUNCATED)).isEqualTo("value");
        });

        RunningApp tiny = RunningApp.start(topology(tooSmall), limitedProps(kafka, "tiny-dlq-app", tooSmall),
                StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        Throwable error = tiny.awaitError();
        tiny.close();
        assertThat(messages(error)).contains(tooSmall.output).contains("RecordTooLargeException");
        assertThat(committed(kafka, tooSmall.output).size()).as("outputs committed before the poison")
                .isLessThan(990);
        assertThat(committed(kafka, tooSmall.deadLetters)).isEmpty();
    }

    @Test
    void failsNamingAMissingDeadLetterTopicAndCommitsEverythingOnceItExists(LocalKafka kafka) throws Exception {
        Topics topics = new Topics("missing-dlq");
        topics.create(kafka, false);
        RunningApp.produce(kafka, topics.input, PoisonTopology.inputs(INPUTS));
        Properties props = RunningApp.exactlyOnceProps(kafka, "missing-dlq-app", stateDir.toString(),
                topics.deadLetters);
        props.put(StreamsConfig.producerPrefix("max.request.size"), PRODUCER_MAX_REQUEST_SIZE);

        RunningApp first = RunningApp.start(topology(topics), props, StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        Throwable error = first.awaitError();
        first.close();
        assertThat(messages(error)).as("the failure names the dead-letter topic and why")
                .contains(topics.deadLetters).contains("UnknownTopicOrPartitionException");
        assertThat(committed(kafka, topics.output).size()).as("outputs committed before the poison")
                .isLessThan(990);

        kafka.createTopic(topics.deadLetters, 1, Map.of());
        RunningApp second = RunningApp.start(topology(topics), props, StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        await("990 outputs and 10 dead letters committed", () -> committed(kafka, topics.output).size() >= 990
                && committed(kafka, topics.deadLetters).size() >= 10);
        second.assertRanWithoutFailures();
        second.close();
        assertThat(committed(kafka, topics.output).stream().map(r -> text(r.value())))
                .as("no duplicates, nothing lost").hasSize(990).containsExactlyInAnyOrderElementsOf(PoisonTopology.goodOutputs(INPUTS));
        assertThat(committed(kafka, topics.deadLetters)).hasSize(10);
    }

    @Test
    void failsWhenMostOutputsWouldBeDeadLetteredInsteadOfParkingTheStream(LocalKafka kafka) throws Exception {
        Topics topics = new Topics("breaker");
        kafka.createTopic(topics.input, 2, Map.of());
        kafka.createTopic(topics.output, 2, Map.of("max.message.bytes", "60"));
        kafka.createTopic(topics.deadLetters, 1, Map.of());
        RunningApp.produce(kafka, topics.input, PoisonTopology.inputs(INPUTS));
        Properties props = RunningApp.exactlyOnceProps(kafka, "breaker-app", stateDir.toString(), topics.deadLetters);
        props.put(DeadLetterHandlerConfig.DLQ_WINDOW_RECORDS_CONFIG, 20);
        props.put(DeadLetterHandlerConfig.DLQ_MAX_RATIO_CONFIG, 0.5);

        RunningApp app = RunningApp.start(topology(topics), props, StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        Throwable error = app.awaitError();
        app.close();

        assertThat(messages(error)).as("the failure names the output topic and the cause").contains(topics.output)
                .contains("RecordTooLargeException");
        assertThat(committed(kafka, topics.output)).as("every output is too large for its topic").isEmpty();
        assertThat(committed(kafka, topics.deadLetters).size()).as("dead letters committed before the breaker")
                .isLessThanOrEqualTo(10);
    }

    /**
     * An app whose breaker tripped (every output too large for its topic), closed, its output topic fixed, and created
     * again in the same JVM while the old instance is still referenced (as a field of the app's owner would hold it):
     * the new instance starts with an empty window. Its first input is a poison, the 39 after it good. The tripped
     * instance committed nothing (a long commit interval; its dead-letter topic is checked empty), so the new one
     * starts at that poison: with the old window (five dead letters in the last ten) it tripped the breaker again at
     * once; with a window of its own it dead-letters it and writes the rest. (Few dead letters on purpose: an output
     * counts as written only when the broker acknowledges it, so a burst of dead letters can fill a window of ten
     * before the writes between them are acknowledged.)
     */
    @Test
    void anAppCreatedAgainAfterItsBreakerTrippedStartsWithAnEmptyWindow(LocalKafka kafka) throws Exception {
        Topics topics = new Topics("rebreak");
        kafka.createTopic(topics.input, 1, Map.of());
        kafka.createTopic(topics.output, 1, Map.of("max.message.bytes", "60"));
        kafka.createTopic(topics.deadLetters, 1, Map.of());
        List<String[]> inputs = new java.util.ArrayList<>();
        inputs.add(new String[] {"poison", "50"});
        for (int i = 1; i < 40; i++) {
            inputs.add(new String[] {"good-" + i, String.valueOf(i)});
        }
        RunningApp.produce(kafka, topics.input, inputs);
        Properties props = RunningApp.exactlyOnceProps(kafka, "rebreak-app", stateDir.toString(), topics.deadLetters);
        props.put(DeadLetterHandlerConfig.DLQ_WINDOW_RECORDS_CONFIG, 10);
        props.put(DeadLetterHandlerConfig.DLQ_MAX_RATIO_CONFIG, 0.5);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 8_000); // under the 10 s transaction timeout

        RunningApp tripped = RunningApp.start(topology(topics), props, StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        assertThat(messages(tripped.awaitError())).as("every output too large: the breaker trips")
                .contains(topics.output).contains("RecordTooLargeException");
        tripped.close();
        assertThat(committed(kafka, topics.deadLetters)).as("nothing committed: the new instance starts at 0")
                .isEmpty();
        try (org.apache.kafka.clients.admin.Admin admin = kafka.admin()) {
            admin.incrementalAlterConfigs(Map.of(new org.apache.kafka.common.config.ConfigResource(
                    org.apache.kafka.common.config.ConfigResource.Type.TOPIC, topics.output), List.of(
                    new org.apache.kafka.clients.admin.AlterConfigOp(new org.apache.kafka.clients.admin.ConfigEntry(
                            "max.message.bytes", "100000"), org.apache.kafka.clients.admin.AlterConfigOp.OpType.SET))))
                    .all().get(30, java.util.concurrent.TimeUnit.SECONDS);
        }

        RunningApp again = RunningApp.start(topology(topics), props, StreamThreadExceptionResponse.SHUTDOWN_CLIENT);
        await("the 39 good outputs and the poison's dead letter committed", () -> again.streams().state()
                == org.apache.kafka.streams.KafkaStreams.State.ERROR || committed(kafka, topics.output).size() >= 39
                && !committed(kafka, topics.deadLetters).isEmpty());
        again.assertRanWithoutFailures();
        again.close();

        assertThat(committed(kafka, topics.output).stream().map(r -> text(r.value())))
                .as("each good output once").hasSize(39).doesNotHaveDuplicates();
        assertThat(committed(kafka, topics.deadLetters)).singleElement()
                .satisfies(letter -> assertThat(text(letter.key())).isEqualTo("poison"));
        assertThat(tripped).as("the tripped instance stays referenced until here").isNotNull();
    }

    private Properties limitedProps(LocalKafka kafka, String applicationId, Topics topics) {
        Properties props = RunningApp.exactlyOnceProps(kafka, applicationId, stateDir.resolve(applicationId).toString(),
                topics.deadLetters);
        props.put(StreamsConfig.producerPrefix("max.request.size"), PRODUCER_MAX_REQUEST_SIZE);
        return props;
    }

    private static Topology topology(Topics topics) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(topics.input, Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(DeadLetterLimitsIT::output)
                .to(topics.output, Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    /** Inputs 50, 150, ..., 950 make outputs of 200 KB, twice the producer's max.request.size. */
    private static String output(String input) {
        int i = Integer.parseInt(input);
        return PoisonTopology.isPoison(i) ? "x".repeat(200_000) : "out-" + i;
    }

    private record Topics(String input, String output, String deadLetters) {
        Topics(String prefix) {
            this(prefix + "-input", prefix + "-output", prefix + "-dlq");
        }

        void create(LocalKafka kafka, boolean withDeadLetterTopic) {
            kafka.createTopic(input, 2, Map.of());
            kafka.createTopic(output, 2, Map.of());
            if (withDeadLetterTopic) {
                kafka.createTopic(deadLetters, 1, Map.of());
            }
        }
    }
}
