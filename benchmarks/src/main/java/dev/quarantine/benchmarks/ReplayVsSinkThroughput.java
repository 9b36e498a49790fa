package dev.quarantine.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.benchmarks.SinkVsMirrorMakerCounter.Landed;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.txn.DeadLetter;
import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.txn.DeadLetterRecordBuilder;

/**
 * Replay against copy, side by side on one broker and one Connect worker (its own JVM, the plugin archive through
 * plugin.path): {@code DeadLetterReplayConnector} replaying 200,000 dead letters of 1 KiB (written as our sink writes
 * them) into a fresh topic, and {@code TransactionalKafkaSinkConnector} copying the same 200,000 records into a
 * fresh topic, each at its defaults (the replay with {@code replay.again=true}, since every run replays the same dead
 * letters). Each run is timed from creating the connector until a read_committed consumer has
 * seen every record in the output; the two alternate over the rounds; records/s are medians.
 *
 * <pre>
 * mvn -B -q -pl connect-plugin/archive,benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.quarantine.benchmarks.ReplayVsSinkThroughput
 * </pre>
 * {@code -Drecords=200000 -Drounds=3 -Dpartitions=4} change the run.
 */
public final class ReplayVsSinkThroughput {

    private static final int RECORDS = Integer.getInteger("records", 200_000);
    private static final int ROUNDS = Integer.getInteger("rounds", 3);
    private static final int PARTITIONS = Integer.getInteger("partitions", 4);
    private static final int RECORD_BYTES = 1024;
    private static final Duration RUN_CAP = Duration.ofSeconds(Long.getLong("run.cap.seconds", 300));
    private static final String INPUT = "bench-input";
    private static final String DLQ = "bench-dlq";

    private final LocalKafka kafka;
    private final LocalConnect worker;

    private ReplayVsSinkThroughput(LocalKafka kafka, LocalConnect worker) {
        this.kafka = kafka;
        this.worker = worker;
    }

    public static void main(String[] args) {
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka", "error");
        Path plugins = RunInputs.pluginPath();
        List<Path> classpath = RunInputs.workerClasspath();
        try (LocalKafka kafka = LocalKafka.create().start();
             LocalConnect worker = LocalConnect.create(kafka, plugins, classpath, Map.of()).start()) {
            new ReplayVsSinkThroughput(kafka, worker).run();
        }
    }

    private void run() {
        System.out.printf("%,d records of %d B, %d partitions, %d rounds (median), %d cores, JDK %s, worker %s%n",
                RECORDS, RECORD_BYTES, PARTITIONS, ROUNDS, Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"), worker.get("/").path("version").asText());
        produceInputAndDeadLetters();
        System.out.println("warm-up, not counted:");
        runSink("sink-warmup");
        runReplay("replay-warmup");
        List<Double> sink = new ArrayList<>();
        List<Double> replay = new ArrayList<>();
        for (int round = 1; round <= ROUNDS; round++) {
            System.out.printf("round %d (load average %s):%n", round, RunInputs.loadAverage());
            if (round % 2 == 1) {
                sink.add(runSink("sink-r" + round));
                replay.add(runReplay("replay-r" + round));
            } else {
                replay.add(runReplay("replay-r" + round));
                sink.add(runSink("sink-r" + round));
            }
        }
        double sinkMedian = median(sink);
        double replayMedian = median(replay);
        System.out.printf("median records/s: replay %,.0f, sink %,.0f; replay / sink = %.2f (target >= 0.9)%n",
                replayMedian, sinkMedian, replayMedian / sinkMedian);
    }

    private double runSink(String name) {
        String output = name + "." + INPUT;
        kafka.createTopic(output, PARTITIONS, Map.of());
        kafka.createTopic(name + "-dlq", 1, Map.of());
        return timed(name, output, Map.of(
                "connector.class", "dev.quarantine.connect.sink.TransactionalKafkaSinkConnector",
                "tasks.max", "2",
                "topics", INPUT,
                "target.bootstrap.servers", kafka.bootstrapServers(),
                "target.topic.format", name + ".${topic}",
                "dlq.topic.name", name + "-dlq",
                "consumer.override.auto.offset.reset", "earliest",
                "consumer.override.isolation.level", "read_committed"));
    }

    private double runReplay(String name) {
        String output = name + "-out";
        kafka.createTopic(output, PARTITIONS, Map.of());
        return timed(name, output, Map.of(
                "connector.class", "dev.quarantine.connect.replay.DeadLetterReplayConnector",
                "bootstrap.servers", kafka.bootstrapServers(),
                "dlq.topic.name", DLQ,
                "replay.destination", output,
                // every run replays the same dead letters: without this, a replay skips what the warm-up's finished
                // replay wrote (docs/replay.md, "Already replayed dead letters") and writes nothing
                "replay.again", "true"));
    }

    /** Creates the connector, waits for every record in {@code output}, deletes it; returns records/s. */
    private double timed(String name, String output, Map<String, String> config) {
        Landed landed;
        long start;
        try (SinkVsMirrorMakerCounter counter = new SinkVsMirrorMakerCounter(kafka, List.of(output))) {
            start = System.nanoTime();
            worker.createConnector(name, config);
            try {
                landed = counter.await(RECORDS, start + RUN_CAP.toNanos(), () -> "status: " + worker.status(name));
            } finally {
                remove(name, output);
            }
        }
        double seconds = (landed.doneNanos() - start) / 1e9;
        double rate = RECORDS / seconds;
        System.out.printf("  %-16s %,8.0f records/s (%5.1f s)%s%n", name, rate, seconds,
                landed.total() > RECORDS ? " MORE THAN WRITTEN" : "");
        return rate;
    }

    private void remove(String name, String output) {
        worker.deleteConnector(name);
        Await.until("connector " + name + " to be deleted", Duration.ofSeconds(60),
                () -> !worker.get("/connectors").toString().contains('"' + name + '"'));
        try (Admin admin = kafka.admin()) {
            admin.deleteTopics(List.of(output)).all().get(30, TimeUnit.SECONDS);
            Thread.sleep(3_000); // the tasks stop asynchronously: let them finish before the next run
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while removing " + name, e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("could not delete " + output, e);
        }
    }

    /** The input records, and the same records as our sink's dead letters (a target that rejected them). */
    private void produceInputAndDeadLetters() {
        kafka.createTopic(INPUT, PARTITIONS, Map.of());
        kafka.createTopic(DLQ, PARTITIONS, Map.of());
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        DeadLetterRecordBuilder letters = new DeadLetterRecordBuilder(DLQ, DeadLetterRecordBuilder.HeaderStyle.CONNECT,
                1_000_000);
        Random random = new Random(42);
        RecordTooLargeException error = new RecordTooLargeException("the target's max.message.bytes");
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                byte[] key = String.valueOf(i).getBytes();
                byte[] value = new byte[RECORD_BYTES];
                random.nextBytes(value);
                int partition = i % PARTITIONS;
                producer.send(new ProducerRecord<>(INPUT, partition, key, value));
                DeadLetter letter = DeadLetter.of(key, value, new org.apache.kafka.common.header.Header[0], error)
                        .source(INPUT, partition, i / PARTITIONS).target("copy." + INPUT, partition)
                        .context(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, "copy")
                        .context(DeadLetterHeaders.CONNECT_TASK_ID, "0")
                        .context(DeadLetterHeaders.CONNECT_STAGE, "TASK_PUT");
                ProducerRecord<byte[], byte[]> record = letters.build(letter);
                producer.send(new ProducerRecord<>(DLQ, partition, record.timestamp(), record.key(), record.value(),
                        record.headers()));
            }
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

}
