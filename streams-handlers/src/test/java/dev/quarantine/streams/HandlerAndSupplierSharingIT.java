package dev.quarantine.streams;

import static dev.quarantine.sandbox.Utf8.text;
import static dev.quarantine.streams.RunningApp.await;
import static dev.quarantine.streams.RunningApp.committed;
import static dev.quarantine.streams.RunningApp.header;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;
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
 * The handler and the supplier's producers of one app share its breaker and the dead-letter topic's limit, never
 * another app's, whatever the stream threads are called: two apps with one client.id in one JVM, three stream
 * threads, a thread replaced after a failure. Every poison output is a 2 MB value; the dead-letter topic takes
 * 100 KB, so a dead letter fits only when the handler knows that limit, which it reads through the app's producers.
 */
@ExtendWith(LocalKafkaExtension.class)
class HandlerAndSupplierSharingIT {

    private static final int INPUTS = 600;
    private static final int PARTITIONS = 6;
    private static final int DEAD_LETTER_MAX_MESSAGE_BYTES = 100_000;
    private static final AtomicBoolean CRASHED = new AtomicBoolean();

    @TempDir
    Path stateDir;

    @Test
    void twoAppsWithTheSameClientIdEachUseTheirOwnBreaker(LocalKafka kafka) throws Exception {
        Topics alpha = Topics.create(kafka, "alpha");
        Topics beta = Topics.create(kafka, "beta");
        Properties alphaProps = props(kafka, "alpha-app", alpha);
        alphaProps.put(StreamsConfig.CLIENT_ID_CONFIG, "same-client");
        Properties betaProps = props(kafka, "beta-app", beta);
        betaProps.put(StreamsConfig.CLIENT_ID_CONFIG, "same-client");
        // beta, which has no poison, may dead-letter nothing: its breaker trips on the first dead letter
        betaProps.put(DeadLetterHandlerConfig.DLQ_MAX_RATIO_CONFIG, 0.0);

        RunningApp first = RunningApp.start(topology(alpha, false), alphaProps,
                StreamThreadExceptionResponse.REPLACE_THREAD);
        RunningApp second = RunningApp.start(topology(beta, false), betaProps,
                StreamThreadExceptionResponse.REPLACE_THREAD);
        produce(kafka, alpha.input);
        produce(kafka, beta.input, 0, 50);
        await("alpha's outputs and dead letters committed", () -> committed(kafka, alpha.output).size() >= 594
                && committed(kafka, alpha.deadLetters).size() >= 6);
        await("beta's outputs committed", () -> committed(kafka, beta.output).size() >= 50);
        first.assertRanWithoutFailures();
        second.assertRanWithoutFailures();
        first.close();
        second.close();

        assertExactlyOnce(kafka, alpha, INPUTS);
        assertThat(committed(kafka, beta.output)).hasSize(50);
        assertThat(committed(kafka, beta.deadLetters)).isEmpty();
    }

    @Test
    void eachOfThreeStreamThreadsDeadLettersItsPoisonWithinTheLimitAndCommits(LocalKafka kafka) throws Exception {
        Topics topics = Topics.create(kafka, "threads");
        Properties props = props(kafka, "threads-app", topics);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 3);

        RunningApp app = RunningApp.start(topology(topics, false), props, StreamThreadExceptionResponse.REPLACE_THREAD);
        await("every thread with tasks", () -> app.streams().metadataForLocalThreads().stream()
                .allMatch(thread -> !thread.activeTasks().isEmpty()));
        Set<String> threads = threadNames(app);
        produce(kafka, topics.input);
        await("594 outputs and 6 dead letters committed", () -> committed(kafka, topics.output).size() >= 594
                && committed(kafka, topics.deadLetters).size() >= 6);
        // three threads joining one by one may take a second rebalance: only a thread death counts here
        assertThat(app.uncaught()).as("uncaught exceptions (stream thread deaths)").isEmpty();
        assertThat(threadNames(app)).as("the same three threads").isEqualTo(threads).hasSize(3);
        app.close();

        assertExactlyOnce(kafka, topics, INPUTS);
    }

    @Test
    void aThreadReplacedAfterAFailureDeadLettersWithinTheLimit(LocalKafka kafka) throws Exception {
        Topics topics = Topics.create(kafka, "replaced");
        Properties props = props(kafka, "replaced-app", topics);
        CRASHED.set(false);

        RunningApp app = RunningApp.start(topology(topics, true), props, StreamThreadExceptionResponse.REPLACE_THREAD);
        produce(kafka, topics.input);
        await("594 outputs and 6 dead letters committed", () -> committed(kafka, topics.output).size() >= 594
                && committed(kafka, topics.deadLetters).size() >= 6);
        assertThat(app.uncaught()).as("the one crash of the topology").singleElement()
                .satisfies(e -> assertThat(RunningApp.messages(e)).contains("crash once at input 0"));
        app.close();

        assertExactlyOnce(kafka, topics, INPUTS);
    }

    private static void assertExactlyOnce(LocalKafka kafka, Topics topics, int inputs) {
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < inputs; i++) {
            if (!isPoison(i)) {
                expected.add("out-" + i);
            }
        }
        assertThat(committed(kafka, topics.output).stream().map(r -> text(r.value())))
                .as("no duplicates, nothing lost").hasSize(expected.size())
                .containsExactlyInAnyOrderElementsOf(expected);
        List<ConsumerRecord<byte[], byte[]>> deadLetters = committed(kafka, topics.deadLetters);
        assertThat(deadLetters).hasSize(inputs / 100).allSatisfy(r -> {
            assertThat(r.serializedValueSize()).isLessThan(DEAD_LETTER_MAX_MESSAGE_BYTES);
            assertThat(header(r, DeadLetterHeaders.PAYLOAD_TRUNCATED)).isEqualTo("value");
            assertThat(header(r, DeadLetterHeaders.TARGET_TOPIC)).isEqualTo(topics.output);
        });
        assertThat(deadLetters.stream().map(r -> header(r, DeadLetterHeaders.STREAMS_PARTITION)))
                .as("one poison input per partition").hasSize(inputs / 100).doesNotHaveDuplicates();
    }

    private static Set<String> threadNames(RunningApp app) {
        return app.streams().metadataForLocalThreads().stream().map(ThreadMetadata::threadName)
                .collect(Collectors.toSet());
    }

    private Properties props(LocalKafka kafka, String applicationId, Topics topics) {
        return RunningApp.exactlyOnceProps(kafka, applicationId, stateDir.resolve(applicationId).toString(),
                topics.deadLetters);
    }

    /** Input i goes to partition i % 6; inputs 50, 151, 252, 353, 454 and 555 (one per partition) are poison. */
    private static boolean isPoison(int i) {
        return i % 100 == 50 + i / 100;
    }

    private static void produce(LocalKafka kafka, String topic) {
        produce(kafka, topic, 0, INPUTS);
    }

    private static void produce(LocalKafka kafka, String topic, int from, int to) {
        try (KafkaProducer<String, String> producer =
                     new KafkaProducer<>(kafka.clientProps(), new StringSerializer(), new StringSerializer())) {
            for (int i = from; i < to; i++) {
                producer.send(new ProducerRecord<>(topic, i % PARTITIONS, "key-" + i, String.valueOf(i)));
            }
        }
    }

    /** Poison outputs of 2 MB; with {@code crashOnce}, the first input 0 seen makes the stream thread die. */
    private static Topology topology(Topics topics, boolean crashOnce) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(topics.input, Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(value -> {
                    int i = Integer.parseInt(value);
                    if (crashOnce && i == 0 && CRASHED.compareAndSet(false, true)) {
                        throw new IllegalStateException("crash once at input 0");
                    }
                    return isPoison(i) ? "x".repeat(2_000_000) : "out-" + i;
                })
                .to(topics.output, Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    private record Topics(String input, String output, String deadLetters) {
        static Topics create(LocalKafka kafka, String prefix) {
            Topics topics = new Topics(prefix + "-input", prefix + "-output", prefix + "-dlq");
            kafka.createTopic(topics.input, PARTITIONS, Map.of());
            kafka.createTopic(topics.output, PARTITIONS, Map.of());
            kafka.createTopic(topics.deadLetters, 1,
                    Map.of("max.message.bytes", String.valueOf(DEAD_LETTER_MAX_MESSAGE_BYTES)));
            return topics;
        }
    }
}
