package dev.quarantine.benchmarks;

import java.io.IOException;
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
import org.apache.kafka.common.serialization.ByteArraySerializer;

import com.fasterxml.jackson.databind.JsonNode;

import dev.quarantine.benchmarks.SinkVsMirrorMakerCounter.Landed;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;

/**
 * Records of 1 KiB copied from one topic to another on one local broker by Connect workers (their own JVMs, plugins
 * through plugin.path), side by side in one run: MirrorMaker 2's MirrorSourceConnector with exactly-once source
 * support, the same at least once, and our {@code TransactionalKafkaSinkConnector} dead-lettering 1% poison (inputs
 * two days old, which its target topic's {@code message.timestamp.before.max.ms} of an hour rejects; MirrorMaker
 * copies the same input). Each run is timed from creating the connector (and, separately, from its first committed
 * record) until a read_committed consumer has seen every input record in the output (target + DLQ for the sink).
 * The modes alternate over the rounds; records/s are medians.
 *
 * <p>Needs the plugin archive and the worker classpath of connect-plugin, and MirrorMaker 2's plugin folder that
 * benchmarks' build copies; from the repository root:
 * <pre>
 * mvn -B -q -pl connect-plugin/archive,benchmarks -am package -DskipTests
 * java -cp benchmarks/target/benchmarks.jar dev.quarantine.benchmarks.SinkVsMirrorMakerThroughput
 * </pre>
 * {@code -Drecords=200000 -Drounds=3 -Dpartitions=4 -Dtasks=2} change the run ({@code -Dpartitions=8,2000}: each
 * size in every round, and each connector's rate at the later sizes as a ratio of its own at the first);
 * {@code -Dsink.config=k=v,...} and {@code -Dmirror.config=k=v,...} add connector settings to one side; {@code -Dplugin.path},
 * {@code -Dmirror.plugin.path}, {@code -Dworker.classpath} the inputs.
 */
public final class SinkVsMirrorMakerThroughput {

    /**
     * Records/s of one run, from the connector's creation and from its first committed record; CPU seconds the
     * worker running it and the broker used meanwhile.
     */
    record Result(double fromCreation, double fromFirstRecord, double workerCpu, double brokerCpu,
                  double endTxnPerSecond) {
    }

    private static final int RECORDS = Integer.getInteger("records", 200_000);
    private static final int WARM_UP_RECORDS = Integer.getInteger("warmup.records", 20_000);
    private static final int ROUNDS = Integer.getInteger("rounds", 3);
    /** The source (and target) topic's partition counts: each size is copied in every round. */
    private static final List<Integer> SIZES = RunInputs.integers("partitions", "4");
    private static final int TASKS = Integer.getInteger("tasks", 2);
    private static final int RECORD_BYTES = 1024;
    private static final int POISON_EVERY = 100;
    private static final long POISON_AGE_MS = TimeUnit.DAYS.toMillis(2);
    private static final Duration RUN_CAP = Duration.ofSeconds(Long.getLong("run.cap.seconds", 300));
    private static final Duration SETTLE = Duration.ofSeconds(3);

    private final LocalKafka kafka;
    private final LocalConnect exactlyOnceWorker;
    private final LocalConnect atLeastOnceWorker;
    private final BrokerRequests broker;

    private SinkVsMirrorMakerThroughput(LocalKafka kafka, LocalConnect exactlyOnceWorker,
                                        LocalConnect atLeastOnceWorker, BrokerRequests broker) {
        this.kafka = kafka;
        this.broker = broker;
        this.exactlyOnceWorker = exactlyOnceWorker;
        this.atLeastOnceWorker = atLeastOnceWorker;
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka", "error");
        Path sinkPlugins = RunInputs.pluginPath();
        Path mirrorPlugins = RunInputs.existing("mirror.plugin.path", "benchmarks/target/mirror-plugin");
        List<Path> classpath = RunInputs.workerClasspath();
        try (LocalKafka kafka = LocalKafka.create().start();
             LocalConnect exactlyOnce = worker(kafka, sinkPlugins, mirrorPlugins, classpath, "enabled");
             LocalConnect atLeastOnce = worker(kafka, sinkPlugins, mirrorPlugins, classpath, "disabled");
             AttachedJvm brokerJvm = AttachedJvm.listeningOn("the broker", RunInputs.brokerPort(kafka))) {
            new SinkVsMirrorMakerThroughput(kafka, exactlyOnce, atLeastOnce, new BrokerRequests(brokerJvm)).run();
        }
    }

    private void run() {
        printSetup();
        int first = SIZES.get(0);
        produce(input("bench-warmup", first), WARM_UP_RECORDS, first);
        for (int partitions : SIZES) {
            produce(input("bench-input", partitions), RECORDS, partitions);
        }
        System.out.printf("load average before the runs: %s%n", RunInputs.loadAverage());
        System.out.println("warm-up, not counted:");
        for (SinkVsMirrorMakerMode mode : SinkVsMirrorMakerMode.values()) {
            runOne(mode, mode.slug + "-warmup", input("bench-warmup", first), WARM_UP_RECORDS, first);
        }
        List<SinkVsMirrorMakerResults> results = new ArrayList<>();
        SIZES.forEach(size -> results.add(new SinkVsMirrorMakerResults()));
        SinkVsMirrorMakerMode[] modes = SinkVsMirrorMakerMode.values();
        for (int round = 0; round < ROUNDS; round++) {
            System.out.printf("round %d (load average %s):%n", round + 1, RunInputs.loadAverage());
            for (int size = 0; size < SIZES.size(); size++) {
                int partitions = SIZES.get(size);
                for (int i = 0; i < modes.length; i++) {
                    SinkVsMirrorMakerMode mode = modes[(i + round) % modes.length];
                    String name = mode.slug + "-p" + partitions + "-r" + (round + 1);
                    results.get(size).add(mode, runOne(mode, name, input("bench-input", partitions), RECORDS,
                            partitions));
                }
            }
        }
        for (int size = 0; size < SIZES.size(); size++) {
            System.out.printf("%n%d partitions:%n", SIZES.get(size));
            results.get(size).print();
        }
        for (int size = 1; size < SIZES.size(); size++) {
            System.out.printf("%n%d / %d partitions, each connector against itself (median of the ratios within each"
                    + " round):%n", SIZES.get(size), first);
            results.get(size).printScaling(results.get(0));
        }
        System.out.printf("load average after the runs: %s%n", RunInputs.loadAverage());
    }

    private static String input(String prefix, int partitions) {
        return prefix + "-p" + partitions;
    }

    /** Copies {@code records} of {@code input} with a new connector named {@code name}; returns its rates. */
    private Result runOne(SinkVsMirrorMakerMode mode, String name, String input, int records, int partitions) {
        List<String> counted = mode.countedTopics(name, input);
        kafka.createTopic(mode.targetTopic(name, input), partitions, mode.targetTopicConfigs());
        if (mode == SinkVsMirrorMakerMode.SINK) {
            kafka.createTopic(SinkVsMirrorMakerMode.deadLetterTopic(name), 1, Map.of());
        }
        LocalConnect worker = mode.onExactlyOnceWorker ? exactlyOnceWorker : atLeastOnceWorker;
        Landed landed;
        long start;
        double workerCpu;
        double brokerCpu;
        long endTxnBefore;
        long endTxn;
        try (SinkVsMirrorMakerCounter counter = new SinkVsMirrorMakerCounter(kafka, counted)) {
            double workerCpuBefore = cpuSeconds(worker.pid());
            double brokerCpuBefore = brokerCpuSeconds();
            endTxnBefore = broker.endTxn();
            start = System.nanoTime();
            worker.createConnector(name, mode.connectorConfig(name, input, kafka.bootstrapServers(), TASKS));
            try {
                landed = counter.await(records, start + RUN_CAP.toNanos(), () -> "status: " + worker.status(name));
                workerCpu = cpuSeconds(worker.pid()) - workerCpuBefore;
                brokerCpu = brokerCpuSeconds() - brokerCpuBefore;
                endTxn = broker.endTxn() - endTxnBefore;
            } finally {
                remove(worker, name, counted);
            }
        }
        double fromCreation = records / ((landed.doneNanos() - start) / 1e9);
        double fromFirst = records / ((landed.doneNanos() - landed.firstNanos()) / 1e9);
        double endTxnPerSecond = BrokerRequests.perSecond(endTxn, landed.doneNanos() - start);
        System.out.printf("  %-58s %,8.0f records/s from creation (%5.1f s), %,8.0f from first record;"
                        + " CPU s: worker %.1f, broker %.1f; broker EndTxn %,d (%.1f/s); committed %s%s%n",
                mode.label + " [" + name + "]", fromCreation, (landed.doneNanos() - start) / 1e9, fromFirst,
                workerCpu, brokerCpu, endTxn, endTxnPerSecond, landed.byTopic(),
                landed.total() > records ? " MORE THAN WRITTEN" : "");
        return new Result(fromCreation, fromFirst, workerCpu, brokerCpu, endTxnPerSecond);
    }

    /** Deletes the connector, waits until the worker no longer lists it, and deletes its topics. */
    private void remove(LocalConnect worker, String name, List<String> topics) {
        worker.deleteConnector(name);
        Await.until("connector " + name + " to be deleted", Duration.ofSeconds(60),
                () -> !worker.get("/connectors").toString().contains('"' + name + '"'));
        try (Admin admin = kafka.admin()) {
            admin.deleteTopics(topics).all().get(30, TimeUnit.SECONDS);
            Thread.sleep(SETTLE.toMillis()); // its tasks stop asynchronously: let them finish before the next run
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while removing " + name, e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("could not delete the topics " + topics, e);
        }
    }

    /** {@code records} of 1 KiB; every 100th is two days old, which the sink's target topic rejects. */
    private void produce(String topic, int records, int partitions) {
        kafka.createTopic(topic, partitions, Map.of());
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        Random random = new Random(42);
        long old = System.currentTimeMillis() - POISON_AGE_MS;
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < records; i++) {
                byte[] value = new byte[RECORD_BYTES];
                random.nextBytes(value);
                Long timestamp = i % POISON_EVERY == 0 ? old : null;
                producer.send(new ProducerRecord<>(topic, null, timestamp, String.valueOf(i).getBytes(), value));
            }
        }
    }

    private static LocalConnect worker(LocalKafka kafka, Path sinkPlugins, Path mirrorPlugins, List<Path> classpath,
                                       String exactlyOnceSourceSupport) {
        // plugin.path is a list: our plugin archive's folder, and MirrorMaker 2's plugin folder
        return LocalConnect.create(kafka, sinkPlugins, classpath, Map.of(
                "plugin.path", sinkPlugins.toAbsolutePath() + "," + mirrorPlugins.toAbsolutePath(),
                "exactly.once.source.support", exactlyOnceSourceSupport)).start();
    }

    private void printSetup() {
        System.out.printf("%,d records of %d B, 1%% poison for the sink, %s partitions, tasks.max=%d, %d rounds"
                        + " (median), %d cores, JDK %s%n", RECORDS, RECORD_BYTES, SIZES, TASKS, ROUNDS,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        JsonNode plugins = exactlyOnceWorker.get("/connector-plugins?connectorsOnly=true");
        for (String type : List.of(SinkVsMirrorMakerMode.MIRROR_CONNECTOR, SinkVsMirrorMakerMode.SINK_CONNECTOR)) {
            String version = null;
            for (JsonNode plugin : plugins) {
                if (type.equals(plugin.path("class").asText())) {
                    version = plugin.path("version").asText();
                }
            }
            if (version == null) {
                throw new IllegalStateException("the worker did not load " + type + "; its plugins: " + plugins);
            }
            System.out.printf("  %s %s%n", type, version);
        }
        System.out.printf("  worker %s%n", exactlyOnceWorker.get("/").path("version").asText());
        System.out.printf("  extra settings: sink %s, mirror %s%n", SinkVsMirrorMakerMode.extraSettings("sink.config"),
                SinkVsMirrorMakerMode.extraSettings("mirror.config"));
    }

    private static double cpuSeconds(long pid) {
        return ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).map(d -> d.toNanos() / 1e9)
                .orElse(Double.NaN);
    }

    /** The CPU time of the broker: the child process of this JVM that is neither worker. */
    private double brokerCpuSeconds() {
        return ProcessHandle.current().children()
                .filter(p -> p.pid() != exactlyOnceWorker.pid() && p.pid() != atLeastOnceWorker.pid())
                .mapToDouble(p -> cpuSeconds(p.pid())).sum();
    }

}
