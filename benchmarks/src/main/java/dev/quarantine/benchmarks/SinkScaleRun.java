package dev.quarantine.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;

/**
 * How the sink scales with the number of source partitions: one worker (Connect's default 2 GB heap), one
 * connector with 2 tasks, source topics of 8 partitions each totalling 8, 64, 512 and 2,000 partitions, 1% poison
 * (inputs two days old, which the target topics' {@code message.timestamp.before.max.ms} of an hour rejects). Per
 * size: the time from creating the connector until every target partition has a committed record (every source
 * partition open and writing), records/s from creation and from the first record, then, with every producer
 * still open, the worker's heap after a full GC, its live threads and its connections to the broker, and last the
 * time from resuming the connector, stopped after one more record was written to every source partition (every
 * partition opened again, each with a committed last transaction), until those records are in the target. A size that
 * does not finish within the cap is reported with what it reached, the connector's status and the partitions
 * whose counts differ from what was written, and ends the run.
 *
 * <pre>
 * mvn -B -q -pl connect-plugin/archive,benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.quarantine.benchmarks.SinkScaleRun
 * </pre>
 * {@code -Dscale.partitions=8,64,512,2000 -Drecords=40000 -Drun.cap.seconds=300 -Dtasks=2 -Dworker.heap=2g}
 * {@code -Dstop.on.failure=false} change the run; {@code -Dsink.config=k=v,...} adds connector settings;
 * {@code -Dplugin.path} (a comma-separated list measures several builds side by side, one worker each) and
 * {@code -Dworker.classpath} the inputs.
 */
public final class SinkScaleRun {

    private static final List<Integer> SIZES = Arrays.stream(System.getProperty("scale.partitions", "8,64,512,2000")
            .split(",")).map(String::trim).map(Integer::valueOf).toList();
    private static final int RECORDS = Integer.getInteger("records", 40_000);
    private static final int TASKS = Integer.getInteger("tasks", 2);
    private static final int TOPIC_PARTITIONS = 8;
    private static final int RECORD_BYTES = 1024;
    private static final int POISON_EVERY = 100;
    private static final Duration RUN_CAP = Duration.ofSeconds(Long.getLong("run.cap.seconds", 300));

    /** One measured size on one worker, or null fields when it broke. */
    record Outcome(double openSeconds, double fromCreation, double fromFirst, double reopenSeconds) {
    }

    private final LocalKafka kafka;
    private final Map<String, LocalConnect> workers;
    private final int brokerPort;

    private SinkScaleRun(LocalKafka kafka, Map<String, LocalConnect> workers) {
        this.kafka = kafka;
        this.workers = workers;
        this.brokerPort = Integer.parseInt(kafka.bootstrapServers().substring(kafka.bootstrapServers()
                .lastIndexOf(':') + 1));
    }

    /**
     * One worker per plugin folder of {@code -Dplugin.path} (a comma-separated list: several builds of the plugin
     * measured side by side, each size on each worker in turn, the order rotating).
     */
    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka", "error");
        List<Path> plugins = Arrays.stream(System.getProperty("plugin.path", "connect-plugin/archive/target/plugin")
                .split(",")).map(p -> RunInputs.checked(p.trim(), "plugin.path")).toList();
        List<Path> classpath = LocalConnect.readClasspath(RunInputs.existing("worker.classpath",
                "connect-plugin/archive/target/connect-worker-classpath.txt"));
        String heap = System.getProperty("worker.heap", "2g");
        Map<String, LocalConnect> workers = new LinkedHashMap<>();
        try (LocalKafka kafka = LocalKafka.create().start()) {
            try {
                for (int i = 0; i < plugins.size(); i++) {
                    workers.put("w" + (i + 1), LocalConnect.create(kafka, plugins.get(i), classpath)
                            .withJvmOptions("-Xms256m", "-Xmx" + heap).start());
                }
                System.out.printf("sink scale run: %,d records of %d B per size, 1%% poison, topics of %d"
                                + " partitions, tasks.max=%d, worker heap %s, %d cores, JDK %s, extra settings %s%n",
                        RECORDS, RECORD_BYTES, TOPIC_PARTITIONS, TASKS, heap,
                        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                        SinkVsMirrorMakerMode.extraSettings("sink.config"));
                for (int i = 0; i < plugins.size(); i++) {
                    System.out.printf("  w%d: plugin %s%n", i + 1, plugins.get(i));
                }
                new SinkScaleRun(kafka, workers).run();
            } finally {
                workers.values().forEach(LocalConnect::close);
            }
        }
    }

    private void run() {
        workers.forEach((label, worker) -> System.out.printf("idle %s: %s; load average %s%n", label,
                WorkerFootprint.of(worker.pid(), brokerPort), RunInputs.loadAverage()));
        List<String> labels = List.copyOf(workers.keySet());
        for (int size = 0; size < SIZES.size(); size++) {
            int partitions = SIZES.get(size);
            Map<String, Outcome> outcomes = new LinkedHashMap<>();
            for (int i = 0; i < labels.size(); i++) {
                String label = labels.get((i + size) % labels.size());
                outcomes.put(label, runOne(label, workers.get(label), partitions));
            }
            if (labels.size() > 1 && outcomes.values().stream().allMatch(o -> o != null)) {
                Outcome first = outcomes.get(labels.get(0));
                outcomes.forEach((label, o) -> System.out.printf("      %s / %s: open time %.2f, records/s from"
                                + " creation %.2f, from the first record %.2f, reopen time %.2f%n", label,
                        labels.get(0), o.openSeconds() / first.openSeconds(), o.fromCreation() / first.fromCreation(),
                        o.fromFirst() / first.fromFirst(), o.reopenSeconds() / first.reopenSeconds()));
            }
            if (outcomes.containsValue(null) && Boolean.parseBoolean(System.getProperty("stop.on.failure",
                    "true"))) {
                break;
            }
        }
    }

    /** One size on one worker; null when it did not finish (what broke is printed). */
    private Outcome runOne(String label, LocalConnect worker, int partitions) {
        String name = "scale" + partitions + "-" + label;
        List<String> inputs = new ArrayList<>();
        for (int i = 0; i * TOPIC_PARTITIONS < partitions; i++) {
            inputs.add(name + "-in" + i);
        }
        List<TopicPartition> targets = createTopics(name, inputs, partitions);
        produce(inputs, partitions);
        String before = RunInputs.loadAverage();
        long start = System.nanoTime();
        Outcome outcome = null;
        Map<TopicPartition, Long> expected = expected(name, inputs, partitions);
        // a partition whose every record is poison (2,000 partitions: each 100th) has nothing to wait for
        SinkScaleCounter counter = new SinkScaleCounter(kafka, targets, name + "-dlq",
                targets.stream().filter(p -> expected.containsKey(p)).toList());
        try {
            worker.createConnector(name, connectorConfig(name, inputs));
            SinkScaleCounter.Landed landed = counter.await(RECORDS, start + RUN_CAP.toNanos(),
                    () -> "status: " + worker.status(name));
            WorkerFootprint footprint = WorkerFootprint.of(worker.pid(), brokerPort);
            double reopen = reopen(worker, name, inputs, partitions, counter, expected);
            outcome = new Outcome(seconds(landed.allPartitionsNanos() - start),
                    RECORDS / seconds(landed.doneNanos() - start),
                    RECORDS / seconds(landed.doneNanos() - landed.firstNanos()), reopen);
            System.out.printf("%5d partitions %s: all open and written in %5.1f s; %,7.0f records/s from creation,"
                            + " %,7.0f from the first record; %s; reopened and written in %5.1f s; load average %s"
                            + " -> %s%n", partitions, label, outcome.openSeconds(), outcome.fromCreation(),
                    outcome.fromFirst(), footprint, reopen, before, RunInputs.loadAverage());
        } catch (RuntimeException e) {
            System.out.printf("%5d partitions %s: BROKE after %.0f s: %s; %s; worker alive: %s; partitions short or"
                            + " over: %s%n", partitions, label, seconds(System.nanoTime() - start), e.getMessage(),
                    worker.isAlive() ? WorkerFootprint.of(worker.pid(), brokerPort) : "no", worker.isAlive(),
                    counter.differences(expected));
        } finally {
            counter.close();
            if (worker.isAlive()) {
                remove(worker, name, inputs, targets);
            }
        }
        return outcome;
    }

    /**
     * Stops the connector (its tasks close every partition), writes one more record to every source partition and
     * resumes it: returns the seconds from the resume until all of them are in the target ({@code expected} counts
     * them), every partition opened again with a committed last transaction (the open looks for commits left open).
     */
    private double reopen(LocalConnect worker, String name, List<String> inputs, int partitions,
                          SinkScaleCounter counter, Map<TopicPartition, Long> expected) {
        worker.rest().call("PUT", "/connectors/" + name + "/stop", null, 202, 204, 200);
        Await.until("connector " + name + " to stop", Duration.ofSeconds(120),
                () -> "STOPPED".equals(worker.status(name).path("connector").path("state").asText())
                        && worker.status(name).path("tasks").isEmpty());
        produceOnePerPartition(inputs, partitions);
        for (int partition = 0; partition < partitions; partition++) {
            expected.merge(new TopicPartition(name + "." + inputs.get(partition / TOPIC_PARTITIONS),
                    partition % TOPIC_PARTITIONS), 1L, Long::sum);
        }
        long resume = System.nanoTime();
        worker.rest().call("PUT", "/connectors/" + name + "/resume", null, 202, 204, 200);
        SinkScaleCounter.Landed landed = counter.await(partitions, resume + RUN_CAP.toNanos(),
                () -> "after the resume, status: " + worker.status(name));
        return seconds(landed.doneNanos() - resume);
    }

    /** How many records each target partition and the dead-letter topic should end with, as {@link #produce} writes. */
    private static Map<TopicPartition, Long> expected(String name, List<String> inputs, int partitions) {
        Map<TopicPartition, Long> expected = new HashMap<>();
        for (int i = 0; i < RECORDS; i++) {
            int partition = i % partitions;
            TopicPartition target = isPoison(i) ? new TopicPartition(name + "-dlq", 0)
                    : new TopicPartition(name + "." + inputs.get(partition / TOPIC_PARTITIONS),
                    partition % TOPIC_PARTITIONS);
            expected.merge(target, 1L, Long::sum);
        }
        return expected;
    }

    private static boolean isPoison(int record) {
        return record % POISON_EVERY == POISON_EVERY - 1;
    }

    private Map<String, String> connectorConfig(String name, List<String> inputs) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("connector.class", SinkVsMirrorMakerMode.SINK_CONNECTOR);
        config.put("tasks.max", String.valueOf(TASKS));
        config.put("topics", String.join(",", inputs));
        config.put("consumer.override.isolation.level", "read_committed");
        config.put("target.bootstrap.servers", kafka.bootstrapServers());
        config.put("target.topic.format", name + ".${topic}");
        config.put("send.errors.tolerance", "all");
        config.put("dlq.topic.name", name + "-dlq");
        config.put("transactional.id.prefix", name);
        config.putAll(SinkVsMirrorMakerMode.extraSettings("sink.config"));
        return config;
    }

    /** The input topics, their target topics (which reject the poison's old timestamps), the dead-letter topic. */
    private List<TopicPartition> createTopics(String name, List<String> inputs, int partitions) {
        List<NewTopic> topics = new ArrayList<>();
        List<TopicPartition> targets = new ArrayList<>();
        Map<String, String> window = Map.of("message.timestamp.before.max.ms",
                String.valueOf(SinkVsMirrorMakerMode.SINK_TIMESTAMP_WINDOW_MS));
        for (int i = 0; i < inputs.size(); i++) {
            int count = Math.min(TOPIC_PARTITIONS, partitions - i * TOPIC_PARTITIONS);
            String target = name + "." + inputs.get(i);
            topics.add(new NewTopic(inputs.get(i), count, (short) 1));
            topics.add(new NewTopic(target, count, (short) 1).configs(window));
            for (int p = 0; p < count; p++) {
                targets.add(new TopicPartition(target, p));
            }
        }
        topics.add(new NewTopic(name + "-dlq", 1, (short) 1));
        try (Admin admin = kafka.admin()) {
            admin.createTopics(topics).all().get(120, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not create the topics of " + name, e);
        }
        return targets;
    }

    /** {@link #RECORDS} of 1 KiB spread evenly over every input partition; every 100th is two days old. */
    private void produce(List<String> inputs, int partitions) {
        produce(inputs, partitions, RECORDS, true);
    }

    /** One record of 1 KiB to every input partition, none poison. */
    private void produceOnePerPartition(List<String> inputs, int partitions) {
        produce(inputs, partitions, partitions, false);
    }

    private void produce(List<String> inputs, int partitions, int records, boolean poison) {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 64 * 1024);
        // a loaded machine: no request times out and is sent again, no input is lost (failures are thrown below)
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 300_000);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 600_000);
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        Random random = new Random(42);
        long old = System.currentTimeMillis() - TimeUnit.DAYS.toMillis(2);
        AtomicReference<Exception> failed = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < records; i++) {
                int partition = i % partitions;
                byte[] value = new byte[RECORD_BYTES];
                random.nextBytes(value);
                Long timestamp = poison && isPoison(i) ? old : null;
                producer.send(new ProducerRecord<>(inputs.get(partition / TOPIC_PARTITIONS),
                        partition % TOPIC_PARTITIONS, timestamp, String.valueOf(i).getBytes(), value),
                        (metadata, e) -> {
                            if (e != null) {
                                failed.compareAndSet(null, e);
                            }
                        });
            }
        }
        if (failed.get() != null) {
            throw new IllegalStateException("could not write the input of " + inputs, failed.get());
        }
    }

    private void remove(LocalConnect worker, String name, List<String> inputs, List<TopicPartition> targets) {
        worker.deleteConnector(name);
        Await.until("connector " + name + " to be deleted", Duration.ofSeconds(120),
                () -> !worker.get("/connectors").toString().contains('"' + name + '"'));
        List<String> topics = new ArrayList<>(inputs);
        targets.stream().map(TopicPartition::topic).distinct().forEach(topics::add);
        topics.add(name + "-dlq");
        try (Admin admin = kafka.admin()) {
            admin.deleteTopics(topics).all().get(120, TimeUnit.SECONDS);
            Thread.sleep(5_000); // its tasks stop asynchronously: let them finish before the next size
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while removing " + name, e);
        } catch (Exception e) {
            throw new IllegalStateException("could not delete the topics of " + name, e);
        }
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

}
