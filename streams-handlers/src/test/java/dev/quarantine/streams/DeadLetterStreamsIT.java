package dev.quarantine.streams;

import static dev.quarantine.sandbox.Utf8.text;
import static dev.quarantine.streams.RunningApp.await;
import static dev.quarantine.streams.RunningApp.committed;
import static dev.quarantine.streams.RunningApp.header;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import javax.management.ObjectName;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.txn.DeadLetterHeaders;

/** An exactly_once_v2 app whose outputs include poison, with our supplier and handler, and with stock Kafka. */
@ExtendWith(LocalKafkaExtension.class)
class DeadLetterStreamsIT {

    /**
     * How long stock Kafka is given to retry the poison (and get past it) after its first failure: the suite's own
     * deadline, as a retry that first meets a send's timeouts (10 s each here) took more than a minute on a loaded
     * machine; a retry seen ends the wait at once.
     */
    private static final Duration STOCK_RETRY_WINDOW = RunningApp.DEADLINE;

    @TempDir
    Path stateDir;

    @Test
    void deadLettersPoisonOutputAndCommitsTheRestExactlyOnceAcrossARestart(LocalKafka kafka) throws Exception {
        PoisonTopology app = new PoisonTopology("ours");
        app.createTopics(kafka);
        RunningApp.produce(kafka, app.input, PoisonTopology.inputs(PoisonTopology.INPUTS));
        Properties props = app.streamsConfig(kafka, "ours-app", stateDir);
        props.put(StreamsConfig.DEFAULT_CLIENT_SUPPLIER_CONFIG, IgnoreSendErrorsClientSupplier.class.getName());
        props.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG,
                DeadLetterProductionExceptionHandler.class.getName());

        RunningApp first = RunningApp.start(app.topology(), props, StreamThreadExceptionResponse.REPLACE_THREAD);
        await("some output committed before the stop", () -> committed(kafka, app.output).size() >= 200);
        first.assertRanWithoutFailures();
        first.close();

        RunningApp second = RunningApp.start(app.topology(), props, StreamThreadExceptionResponse.REPLACE_THREAD);
        await("990 outputs and 10 dead letters committed", () -> committed(kafka, app.output).size() >= 990
                && committed(kafka, app.deadLetters).size() >= 10);
        second.assertRanWithoutFailures();
        assertThat(second.streams().metrics().entrySet()).anySatisfy(metric -> {
            assertThat(metric.getKey().name()).isEqualTo("dead-letter-records-total");
            assertThat(metric.getKey().tags()).containsEntry("error-class", "RecordTooLargeException");
        });
        second.close();

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
        RunningApp.produce(kafka, app.input, PoisonTopology.inputs(PoisonTopology.INPUTS));
        Properties props = app.streamsConfig(kafka, "stock-app", stateDir);
        props.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, ResumeHandler.class.getName());
        // the retried transaction's sends wait at most these, not Kafka's 60 s / 120 s defaults
        props.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_BLOCK_MS_CONFIG), 10_000);
        props.put(StreamsConfig.producerPrefix(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG), 5_000);
        props.put(StreamsConfig.producerPrefix(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG), 10_000);

        RunningApp stock = RunningApp.start(app.topology(), props, StreamThreadExceptionResponse.REPLACE_THREAD);
        Await.until(() -> "a poison output's error handed to the production handler; seen: " + stock.describe()
                        + ", handled: " + describe(ResumeHandler.handled("stock-app")),
                RunningApp.DEADLINE, () -> poisonErrors(ResumeHandler.handled("stock-app")).size() >= 1);
        // Stock Kafka 4.4 retries the doomed transaction: by a replaced stream thread when the poison's error fails a
        // later send, or by reviving the task when it fails the commit (which one depends on when the broker's
        // answer arrives); 4.2 keeps handing the same record's dead-letter send failures. Either way the poison's
        // source record reaches the handler again, which is waited for. The claim, that stock Kafka gets no further
        // than the poison, needs that: without it seen in the window the test is reported skipped (its premise not
        // met), not passed.
        boolean retried = RunningApp.within(STOCK_RETRY_WINDOW,
                () -> poisonHandedAgain(ResumeHandler.handled("stock-app")) != null);
        String seen = "seen: " + stock.describe() + ", handled: " + describe(ResumeHandler.handled("stock-app"));
        stock.close();

        // the poison fails every attempt the same way, so stock Kafka can never get past it
        assertThat(committed(kafka, app.output).size()).as("good outputs committed by stock Kafka").isLessThan(990);
        assertThat(committed(kafka, app.deadLetters).size()).as("dead letters committed by stock Kafka")
                .isLessThan(10);
        Assumptions.assumeTrue(retried, () -> "stock Kafka did not retry the poison within " + STOCK_RETRY_WINDOW
                + "; " + seen);
    }

    @Test
    void deadLettersKeepTheTimestampOfTheRecordsThatFailed(LocalKafka kafka) throws Exception {
        String input = "aged-input";
        String output = "aged-output";
        String deadLetters = "aged-dlq";
        kafka.createTopic(input, 2, Map.of());
        kafka.createTopic(output, 2, Map.of("max.message.bytes", "2000"));
        kafka.createTopic(deadLetters, 1, Map.of());
        long twoDaysAgo = System.currentTimeMillis() - Duration.ofDays(2).toMillis();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(kafka.clientProps(), new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>(input, null, twoDaysAgo + i, "key-" + i, String.valueOf(i)));
            }
        }
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.String()))
                .mapValues(v -> v + ":" + "x".repeat(3_000))
                .to(output, Produced.with(Serdes.String(), Serdes.String()));
        Properties props = RunningApp.exactlyOnceProps(kafka, "aged-app", stateDir.toString(), deadLetters);

        RunningApp app = RunningApp.start(builder.build(), props, StreamThreadExceptionResponse.REPLACE_THREAD);
        await("100 dead letters committed", () -> committed(kafka, deadLetters).size() >= 100);
        app.assertRanWithoutFailures();
        app.close();

        List<ConsumerRecord<byte[], byte[]>> letters = committed(kafka, deadLetters);
        assertThat(letters).hasSize(100).allSatisfy(letter -> {
            int i = Integer.parseInt(text(letter.key()).substring("key-".length()));
            assertThat(letter.timestamp()).as("dead letter of input %d", i).isEqualTo(twoDaysAgo + i);
            assertThat(letter.timestampType()).isEqualTo(TimestampType.CREATE_TIME);
        });
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

    /**
     * The errors handed to the handler, as input position and exception class, oldest first (at most 20); the message
     * of an error that is not a poison's own (a timeout names its topic and wait, never a record's bytes).
     */
    private static String describe(List<ResumeHandler.Handled> handled) {
        return handled.stream().limit(20).map(h -> h.source() + " " + h.exception().getClass().getSimpleName()
                + (poisonErrors(List.of(h)).isEmpty() ? " (" + h.exception().getMessage() + ")" : ""))
                .toList() + (handled.size() > 20 ? " and " + (handled.size() - 20) + " more" : "");
    }

    /**
     * A hand-over, again, of a source record whose first hand-over was its output's poison error (too large, or a null
     * key into the compacted topic; never a misconfiguration): Kafka Streams met that record again, and has not got
     * past it. The later error may be another: on a retry a slow broker's metadata timeout can come first, and
     * kafka-streams 4.2 (the compatibility tier) hands the dead-letter records' own send failures (their topic "not
     * present in metadata", each after max.block.ms) for the same record, over and over, without a retry.
     */
    private static ResumeHandler.Handled poisonHandedAgain(List<ResumeHandler.Handled> handled) {
        Set<String> poisoned = new HashSet<>();
        for (ResumeHandler.Handled h : handled) {
            if (poisoned.contains(h.source())) {
                return h;
            }
            if (!poisonErrors(List.of(h)).isEmpty()) {
                poisoned.add(h.source());
            }
        }
        return null;
    }

    /** The errors handed that are a poison output's own (too large, or a null key into the compacted topic). */
    private static List<ResumeHandler.Handled> poisonErrors(List<ResumeHandler.Handled> handled) {
        return handled.stream().filter(h -> h.exception() instanceof RecordTooLargeException
                || h.exception() instanceof InvalidRecordException).toList();
    }
}
