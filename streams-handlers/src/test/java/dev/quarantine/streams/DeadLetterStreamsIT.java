package dev.quarantine.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import javax.management.ObjectName;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.TopicReader;
import dev.quarantine.txn.DeadLetterHeaders;

/** An exactly_once_v2 app whose outputs include poison, with our supplier and handler, and with stock Kafka. */
@ExtendWith(LocalKafkaExtension.class)
class DeadLetterStreamsIT {

    private static final Duration DEADLINE = Duration.ofSeconds(180);

    @TempDir
    Path stateDir;

    @Test
    void deadLettersPoisonOutputAndCommitsTheRestExactlyOnceAcrossARestart(LocalKafka kafka) throws Exception {
        PoisonTopology app = new PoisonTopology("ours");
        app.createTopics(kafka);
        produceInputs(kafka, app.input);
        Properties props = app.streamsConfig(kafka, "ours-app", stateDir);
        props.put(StreamsConfig.DEFAULT_CLIENT_SUPPLIER_CONFIG, IgnoreSendErrorsClientSupplier.class.getName());
        props.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG,
                DeadLetterProductionExceptionHandler.class.getName());

        Watched first = Watched.start(app, props);
        await("some output committed before the stop", () -> committed(kafka, app.output).size() >= 200);
        first.assertRanWithoutFailures();
        first.streams.close(Duration.ofSeconds(30));

        Watched second = Watched.start(app, props);
        await("990 outputs and 10 dead letters committed", () -> committed(kafka, app.output).size() >= 990
                && committed(kafka, app.deadLetters).size() >= 10);
        second.assertRanWithoutFailures();
        assertThat(second.streams.metrics().entrySet()).anySatisfy(metric -> {
            assertThat(metric.getKey().name()).isEqualTo("dead-letter-records-total");
            assertThat(metric.getKey().tags()).containsEntry("error-class", "RecordTooLargeException");
        });
        second.streams.close(Duration.ofSeconds(30));

        List<String> outputs = committed(kafka, app.output).stream().map(r -> text(r.value())).toList();
        assertThat(outputs).as("no duplicates, nothing lost").hasSize(990)
                .containsExactlyInAnyOrderElementsOf(PoisonTopology.goodOutputs());
        assertThat(committed(kafka, app.compacted)).isEmpty();
        assertDeadLetters(committed(kafka, app.deadLetters), app);
        assertThat(ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName(
                "kafka.streams:type=" + DeadLetterMetrics.GROUP + ",application-id=ours-app,*"), null)).isNotEmpty();
    }

    @Test
    void stockKafkaWithItsDeadLetterConfigAndAResumeHandlerMakesNoProgressPastThePoison(LocalKafka kafka)
            throws Exception {
        PoisonTopology app = new PoisonTopology("stock");
        app.createTopics(kafka);
        produceInputs(kafka, app.input);
        Properties props = app.streamsConfig(kafka, "stock-app", stateDir);
        props.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, ResumeHandler.class.getName());

        Watched stock = Watched.start(app, props);
        await("the stream thread to die on the poison", () -> stock.threadDeaths.get() >= 1);
        stock.streams.close(Duration.ofSeconds(30));

        // the poison fails every attempt the same way, so stock Kafka can never get past it
        assertThat(committed(kafka, app.output).size()).as("good outputs committed by stock Kafka").isLessThan(990);
        assertThat(committed(kafka, app.deadLetters).size()).as("dead letters committed by stock Kafka")
                .isLessThan(10);
    }

    private static void assertDeadLetters(List<ConsumerRecord<byte[], byte[]>> deadLetters, PoisonTopology app) {
        assertThat(deadLetters).hasSize(10);
        assertThat(deadLetters).allSatisfy(r -> {
            assertThat(header(r, DeadLetterHeaders.STREAMS_TOPIC)).isEqualTo(app.input);
            assertThat(header(r, DeadLetterHeaders.STREAMS_PARTITION)).isIn("0", "1");
            assertThat(Long.parseLong(header(r, DeadLetterHeaders.STREAMS_OFFSET))).isNotNegative();
            assertThat(header(r, DeadLetterHeaders.ERROR_CATEGORY)).isEqualTo("RECORD");
            assertThat(Integer.parseInt(header(r, DeadLetterHeaders.ORIGINAL_SIZE))).isPositive();
        });
        assertThat(deadLetters.stream().map(r -> header(r, DeadLetterHeaders.STREAMS_EXCEPTION)).distinct())
                .containsExactlyInAnyOrder("org.apache.kafka.common.errors.RecordTooLargeException",
                        "org.apache.kafka.common.InvalidRecordException");
        assertThat(deadLetters.stream().filter(r -> app.compacted.equals(header(r, DeadLetterHeaders.TARGET_TOPIC))))
                .hasSize(3);
        assertThat(deadLetters.stream().filter(r -> "value".equals(header(r, DeadLetterHeaders.PAYLOAD_TRUNCATED))))
                .as("the 2 MB outputs, cut to the dead-letter limit").hasSize(4);
    }

    private static void produceInputs(LocalKafka kafka, String topic) {
        try (KafkaProducer<String, String> producer =
                     new KafkaProducer<>(kafka.clientProps(), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < PoisonTopology.INPUTS; i++) {
                producer.send(new ProducerRecord<>(topic, "key-" + i, String.valueOf(i)));
            }
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> committed(LocalKafka kafka, String topic) {
        return TopicReader.readCommitted(kafka, topic, Duration.ofSeconds(30));
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : text(header.value());
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Instant deadline = Instant.now().plus(DEADLINE);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("timed out after " + DEADLINE.toSeconds() + " s waiting for " + what);
            }
            Thread.sleep(250);
        }
    }

    /** A running app with its state transitions and stream-thread deaths recorded. */
    private record Watched(KafkaStreams streams, List<String> transitions, AtomicInteger threadDeaths) {

        static Watched start(PoisonTopology app, Properties props) throws InterruptedException {
            KafkaStreams streams = new KafkaStreams(app.topology(), props);
            Watched watched = new Watched(streams, new CopyOnWriteArrayList<>(), new AtomicInteger());
            streams.setStateListener((now, before) -> watched.transitions.add(before + "->" + now));
            streams.setUncaughtExceptionHandler(e -> {
                watched.threadDeaths.incrementAndGet();
                return StreamThreadExceptionResponse.REPLACE_THREAD;
            });
            streams.start();
            await("the app to reach RUNNING", () -> streams.state() == KafkaStreams.State.RUNNING);
            return watched;
        }

        void assertRanWithoutFailures() {
            assertThat(threadDeaths.get()).as("stream thread deaths").isZero();
            assertThat(streams.state()).isEqualTo(KafkaStreams.State.RUNNING);
            assertThat(transitions).as("state transitions").containsExactly("CREATED->REBALANCING",
                    "REBALANCING->RUNNING");
            assertThat(streams.metrics().entrySet()).noneSatisfy(metric -> {
                assertThat(metric.getKey().name()).isEqualTo("task-closed-total");
                assertThat((Double) metric.getValue().metricValue()).isPositive();
            });
        }
    }

}
