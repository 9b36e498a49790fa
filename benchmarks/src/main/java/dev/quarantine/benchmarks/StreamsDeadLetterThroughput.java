package dev.quarantine.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Stream;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.streams.DeadLetterProductionExceptionHandler;
import dev.quarantine.streams.IgnoreSendErrorsClientSupplier;

/**
 * An exactly_once_v2 Streams app copying 1 KiB records, run side by side on one local broker: stock Kafka Streams and
 * the same app with {@link IgnoreSendErrorsClientSupplier} + {@link DeadLetterProductionExceptionHandler}, at 0%
 * poison, and ours at 1% poison (outputs larger than the output topic's max.message.bytes). Stock Kafka at 1% poison
 * is run too, with a time cap, to show it makes no progress. Prints records/s (committed output + dead letters, as
 * a read_committed consumer sees them, from the app reaching RUNNING to the last record) and the ratios.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.quarantine.benchmarks.StreamsDeadLetterThroughput}
 */
public final class StreamsDeadLetterThroughput {

    private static final int RECORDS = Integer.getInteger("records", 100_000);
    private static final int ROUNDS = Integer.getInteger("rounds", 7);
    private static final int WARM_UP_ROUNDS = Integer.getInteger("warmup.rounds", 2);
    private static final int RECORD_BYTES = 1024;
    private static final int OUTPUT_MAX_MESSAGE_BYTES = 16 * 1024;
    private static final Duration STOCK_POISON_CAP = Duration.ofSeconds(60);

    private final LocalKafka kafka;
    private final Path stateRoot;

    private StreamsDeadLetterThroughput(LocalKafka kafka, Path stateRoot) {
        this.kafka = kafka;
        this.stateRoot = stateRoot;
    }

    public static void main(String[] args) throws Exception {
        Path stateRoot = Files.createTempDirectory("quarantine-streams-bench-");
        try (LocalKafka kafka = LocalKafka.create().start()) {
            new StreamsDeadLetterThroughput(kafka, stateRoot).run();
        } finally {
            deleteRecursively(stateRoot);
        }
    }

    private void run() {
        String clean = "bench-input-clean";
        String poisoned = "bench-input-poison";
        produceInputs(clean, 0);
        produceInputs(poisoned, 100);
        System.out.printf("Kafka Streams exactly_once_v2, %,d records of %d B, %d rounds (median)%n", RECORDS,
                RECORD_BYTES, ROUNDS);
        for (int round = 0; round < WARM_UP_ROUNDS; round++) {
            runApp("warm-up-stock-" + round, clean, false, Duration.ofMinutes(5));
            runApp("warm-up-ours-" + round, clean, true, Duration.ofMinutes(5));
            runApp("warm-up-ours-poison-" + round, poisoned, true, Duration.ofMinutes(5));
        }
        List<Double> stock = new ArrayList<>();
        List<Double> ours = new ArrayList<>();
        List<Double> oursPoison = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            stock.add(runApp("stock-" + round, clean, false, Duration.ofMinutes(5)));
            ours.add(runApp("ours-" + round, clean, true, Duration.ofMinutes(5)));
            oursPoison.add(runApp("ours-poison-" + round, poisoned, true, Duration.ofMinutes(5)));
        }
        double stockPoison = runApp("stock-poison", poisoned, false, STOCK_POISON_CAP);
        double stockRate = median(stock);
        double oursRate = median(ours);
        double oursPoisonRate = median(oursPoison);
        List<Double> oursVsStock = new ArrayList<>();
        List<Double> poisonVsClean = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            oursVsStock.add(ours.get(round) / stock.get(round));
            poisonVsClean.add(oursPoison.get(round) / ours.get(round));
        }
        double ratio0 = median(oursVsStock);
        double ratio1 = median(poisonVsClean);
        System.out.println();
        System.out.println("| app | poison | records/s |");
        System.out.println("| --- | --- | ---: |");
        System.out.printf("| stock Kafka Streams | 0%% | %,.0f |%n", stockRate);
        System.out.printf("| with supplier + handler | 0%% | %,.0f |%n", oursRate);
        System.out.printf("| with supplier + handler | 1%% | %,.0f |%n", oursPoisonRate);
        System.out.printf("| stock Kafka Streams | 1%% | %,.0f (stopped after %d s) |%n", stockPoison,
                STOCK_POISON_CAP.toSeconds());
        System.out.println();
        System.out.println("(records/s: median over the rounds; ratios: median over the rounds of the ratio within a"
                + " round, as the apps of a round run one after the other under the same conditions)");
        System.out.printf("ours / stock at 0%% poison: %.3f (target >= 0.97: %s)%n", ratio0,
                ratio0 >= 0.97 ? "PASS" : "MISS");
        System.out.printf("ours at 1%% / ours at 0%%:   %.3f (target >= 0.90: %s)%n", ratio1,
                ratio1 >= 0.90 ? "PASS" : "MISS");
    }

    /** Runs one app over {@code input} until every record is committed (or {@code cap}); returns records/s. */
    private double runApp(String name, String input, boolean quarantine, Duration cap) {
        String output = name + "-output";
        String deadLetters = name + "-dlq";
        kafka.createTopic(output, 2, Map.of("max.message.bytes", String.valueOf(OUTPUT_MAX_MESSAGE_BYTES)));
        kafka.createTopic(deadLetters, 1, Map.of());
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
                .mapValues(StreamsDeadLetterThroughput::transform)
                .to(output, Produced.with(Serdes.ByteArray(), Serdes.ByteArray()));
        long start;
        long done;
        try (KafkaStreams streams = new KafkaStreams(builder.build(), props(name, deadLetters, quarantine))) {
            streams.setUncaughtExceptionHandler(e -> StreamThreadExceptionResponse.REPLACE_THREAD);
            streams.start();
            awaitRunning(streams);
            start = System.nanoTime();
            done = awaitCommitted(List.of(output, deadLetters), RECORDS, start + cap.toNanos());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double rate = done / seconds;
        System.out.printf("  %-16s %s: %,d of %,d committed in %.1f s, %,.0f records/s%n", name,
                quarantine ? "ours " : "stock", done, RECORDS, seconds, rate);
        return rate;
    }

    private static void awaitRunning(KafkaStreams streams) {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (streams.state() != KafkaStreams.State.RUNNING) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the app did not reach RUNNING within a minute: " + streams.state());
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private Properties props(String name, String deadLetters, boolean quarantine) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "bench-" + name);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateRoot.resolve(name).toString());
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, deadLetters);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6000);
        if (quarantine) {
            props.put(StreamsConfig.DEFAULT_CLIENT_SUPPLIER_CONFIG, IgnoreSendErrorsClientSupplier.class.getName());
            props.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG,
                    DeadLetterProductionExceptionHandler.class.getName());
        }
        return props;
    }

    /** A poison input (first byte 'P') becomes an output 1 KiB larger than the output topic accepts. */
    private static byte[] transform(byte[] value) {
        return value[0] == 'P' ? new byte[OUTPUT_MAX_MESSAGE_BYTES + RECORD_BYTES] : value;
    }

    private void produceInputs(String topic, int poisonEvery) {
        kafka.createTopic(topic, 2, Map.of());
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                byte[] value = new byte[RECORD_BYTES];
                value[0] = poisonEvery > 0 && i % poisonEvery == 0 ? (byte) 'P' : (byte) 'G';
                producer.send(new ProducerRecord<>(topic, String.valueOf(i).getBytes(), value));
            }
        }
    }

    private long awaitCommitted(List<String> topics, int expected, long deadlineNanos) {
        Properties props = kafka.clientProps();
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-counter-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        long count = 0;
        try (KafkaConsumer<byte[], byte[]> consumer =
                     new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(topics);
            while (count < expected && System.nanoTime() < deadlineNanos) {
                count += consumer.poll(Duration.ofMillis(100)).count();
            }
        }
        return count;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
