package dev.quarantine.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;

/**
 * How the sink scales with the number of source partitions: one worker (Connect's default 2 GB heap), one
 * connector with 2 tasks, source topics of 8 partitions each totalling 8, 64, 512 and 2,000 partitions, 1% poison
 * (inputs two days old, which the target topics' {@code message.timestamp.before.max.ms} of an hour rejects). Per
 * size: the time from creating the connector until every target partition has a committed record (every source
 * partition open and writing), records/s from creation and from the first record, the broker's {@code EndTxn}
 * requests over that time and the sink producers' {@code bufferpool-wait-ratio} and {@code batch-size-avg} sampled
 * through it ({@link ProducerSampler}); then, with every producer still open, the worker's heap after a full GC, its
 * threads and its connections ({@link WorkerFootprint}); then the time from resuming the connector, stopped after one
 * more record was written to every source partition, until those records are in the target (every partition opened
 * again, each with a committed last transaction); last, {@code tasks.max} raised by one and set back, one more record
 * per source partition each time: the seconds from the config change until those records are in the target. Each
 * metric is read from the worker's and the broker's own JVMs through JMX ({@link AttachedJvm}). Each size is also
 * printed as a ratio of the first size on the same worker, measured in the same run (the baseline: today's sink at 8
 * partitions). A size that does not finish within the cap is reported with what it reached, the connector's status
 * and the partitions whose counts differ from what was written, and ends the run.
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

    private static final List<Integer> SIZES = RunInputs.integers("scale.partitions", "8,64,512,2000");
    private static final int RECORDS = Integer.getInteger("records", 40_000);
    private static final int TASKS = Integer.getInteger("tasks", 2);
    private static final Duration RUN_CAP = Duration.ofSeconds(Long.getLong("run.cap.seconds", 300));

    private final LocalKafka kafka;
    private final Map<String, LocalConnect> workers;
    private final Map<String, AttachedJvm> workerJvms;
    private final BrokerRequests broker;
    private final int brokerPort;

    private SinkScaleRun(LocalKafka kafka, Map<String, LocalConnect> workers, Map<String, AttachedJvm> workerJvms,
                         BrokerRequests broker, int brokerPort) {
        this.kafka = kafka;
        this.workers = workers;
        this.workerJvms = workerJvms;
        this.broker = broker;
        this.brokerPort = brokerPort;
    }

    /**
     * One worker per plugin folder of {@code -Dplugin.path} (a comma-separated list: several builds of the plugin
     * measured side by side, each size on each worker in turn, the order rotating).
     */
    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka", "error");
        List<Path> plugins = Arrays.stream(System.getProperty("plugin.path", RunInputs.PLUGIN_PATH_DEFAULT)
                .split(",")).map(p -> RunInputs.checked(p.trim(), "plugin.path")).toList();
        List<Path> classpath = RunInputs.workerClasspath();
        String heap = System.getProperty("worker.heap", "2g");
        Map<String, LocalConnect> workers = new LinkedHashMap<>();
        Map<String, AttachedJvm> jvms = new LinkedHashMap<>();
        try (LocalKafka kafka = LocalKafka.create().start()) {
            int brokerPort = RunInputs.brokerPort(kafka);
            try (AttachedJvm brokerJvm = AttachedJvm.listeningOn("the broker", brokerPort)) {
                for (int i = 0; i < plugins.size(); i++) {
                    LocalConnect worker = LocalConnect.create(kafka, plugins.get(i), classpath)
                            .withJvmOptions("-Xms256m", "-Xmx" + heap).start();
                    workers.put("w" + (i + 1), worker);
                    jvms.put("w" + (i + 1), AttachedJvm.of("the worker w" + (i + 1), worker.pid()));
                }
                System.out.printf("sink scale run: %,d records of %d B per size, 1%% poison, topics of %d"
                                + " partitions, tasks.max=%d, worker heap %s, %d cores, JDK %s, extra settings %s%n",
                        RECORDS, SinkScaleTopics.RECORD_BYTES, SinkScaleTopics.TOPIC_PARTITIONS, TASKS, heap,
                        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                        SinkVsMirrorMakerMode.extraSettings("sink.config"));
                for (int i = 0; i < plugins.size(); i++) {
                    System.out.printf("  w%d: plugin %s%n", i + 1, plugins.get(i));
                }
                new SinkScaleRun(kafka, workers, jvms, new BrokerRequests(brokerJvm), brokerPort).run();
            } finally {
                jvms.values().forEach(AttachedJvm::close);
                workers.values().forEach(LocalConnect::close);
            }
        }
    }

    private void run() {
        workers.forEach((label, worker) -> System.out.printf("idle %s: %s; load average %s%n", label,
                WorkerFootprint.of(workerJvms.get(label), brokerPort), RunInputs.loadAverage()));
        List<String> labels = List.copyOf(workers.keySet());
        Map<String, SinkScaleOutcome> baselines = new LinkedHashMap<>();
        for (int size = 0; size < SIZES.size(); size++) {
            int partitions = SIZES.get(size);
            Map<String, SinkScaleOutcome> outcomes = new LinkedHashMap<>();
            for (int i = 0; i < labels.size(); i++) {
                String label = labels.get((i + size) % labels.size());
                outcomes.put(label, runOne(label, partitions));
            }
            outcomes.forEach((label, o) -> {
                SinkScaleOutcome baseline = baselines.get(label);
                if (o != null && baseline != null) {
                    System.out.printf("      %s, %d / %d partitions (same worker, this run): %s%n", label,
                            partitions, SIZES.get(0), o.ratiosTo(baseline));
                }
            });
            if (size == 0) {
                baselines.putAll(outcomes);
            }
            if (labels.size() > 1 && outcomes.values().stream().allMatch(o -> o != null)) {
                SinkScaleOutcome first = outcomes.get(labels.get(0));
                outcomes.forEach((label, o) -> System.out.printf("      %s / %s: %s%n", label, labels.get(0),
                        o.ratiosTo(first)));
            }
            if (outcomes.containsValue(null) && Boolean.parseBoolean(System.getProperty("stop.on.failure",
                    "true"))) {
                break;
            }
        }
    }

    /** One size on one worker; null when it did not finish (what broke is printed). */
    private SinkScaleOutcome runOne(String label, int partitions) {
        LocalConnect worker = workers.get(label);
        AttachedJvm jvm = workerJvms.get(label);
        String name = "scale" + partitions + "-" + label;
        SinkScaleTopics topics = new SinkScaleTopics(kafka, name, partitions).create();
        Map<TopicPartition, Long> expected = topics.produce(RECORDS);
        String before = RunInputs.loadAverage();
        // a partition whose every record is poison (2,000 partitions: each 100th) has nothing to wait for
        SinkScaleCounter counter = new SinkScaleCounter(kafka, topics.targets(), topics.deadLetterTopic(),
                topics.targets().stream().filter(expected::containsKey).toList());
        SinkScaleOutcome outcome = null;
        long endTxnBefore = broker.endTxn();
        long start = System.nanoTime();
        try (ProducerSampler sampler = ProducerSampler.start(jvm, name);
             OwnedWatcher owned = OwnedWatcher.start(jvm, name, partitions, start)) {
            worker.createConnector(name, connectorConfig(name, topics.inputs(), TASKS));
            SinkScaleCounter.Landed landed = counter.await(RECORDS, start + RUN_CAP.toNanos(),
                    () -> "status: " + worker.status(name));
            long endTxn = broker.endTxn() - endTxnBefore;
            ProducerSampler.Figures producers = sampler.finish();
            WorkerFootprint footprint = WorkerFootprint.of(jvm, brokerPort);
            double reopen = reopen(worker, name, topics, counter, expected);
            double up = rescale(worker, name, topics, TASKS + 1, counter, expected);
            double down = rescale(worker, name, topics, TASKS, counter, expected);
            outcome = new SinkScaleOutcome(owned.ownedSeconds(), seconds(landed.allPartitionsNanos() - start),
                    RECORDS / seconds(landed.doneNanos() - start),
                    RECORDS / seconds(landed.doneNanos() - landed.firstNanos()), endTxn,
                    BrokerRequests.perSecond(endTxn, landed.doneNanos() - start), producers, footprint, reopen,
                    up, down);
            System.out.printf("%5d partitions %s: %s; load average %s -> %s%n", partitions, label, outcome.describe(
                    TASKS), before, RunInputs.loadAverage());
            Map<TopicPartition, String> differences = counter.differences(expected);
            if (!differences.isEmpty()) {
                System.out.printf("      COUNTS DIFFER from what was written (lost or duplicated): %s%n", differences);
            }
        } catch (RuntimeException e) {
            System.out.printf("%5d partitions %s: BROKE after %.0f s: %s; %s; worker alive: %s; partitions short or"
                            + " over: %s%n", partitions, label, seconds(System.nanoTime() - start), e.getMessage(),
                    worker.isAlive() ? WorkerFootprint.of(jvm, brokerPort) : "no", worker.isAlive(),
                    counter.differences(expected));
        } finally {
            counter.close();
            if (worker.isAlive()) {
                remove(worker, name, topics);
            }
        }
        return outcome;
    }

    /**
     * Stops the connector (its tasks close every partition), writes one more record to every source partition and
     * resumes it: returns the seconds from the resume until all of them are in the target ({@code expected} counts
     * them), every partition opened again with a committed last transaction (the open looks for commits left open).
     */
    private double reopen(LocalConnect worker, String name, SinkScaleTopics topics, SinkScaleCounter counter,
                          Map<TopicPartition, Long> expected) {
        worker.rest().call("PUT", "/connectors/" + name + "/stop", null, 202, 204, 200);
        Await.until("connector " + name + " to stop", Duration.ofSeconds(120),
                () -> "STOPPED".equals(worker.status(name).path("connector").path("state").asText())
                        && worker.status(name).path("tasks").isEmpty());
        topics.produceOnePerPartition(expected);
        long resume = System.nanoTime();
        worker.rest().call("PUT", "/connectors/" + name + "/resume", null, 202, 204, 200);
        SinkScaleCounter.Landed landed = counter.await(topics.targets().size(), resume + RUN_CAP.toNanos(),
                () -> "after the resume, status: " + worker.status(name));
        return seconds(landed.doneNanos() - resume);
    }

    /**
     * Sets {@code tasks.max} to {@code tasks} (Connect stops the connector's tasks and starts the new number, which
     * opens every partition again) and at once writes one more record to every source partition: returns the seconds
     * from the config change until exactly {@code tasks} tasks run and all of those records are in the target.
     */
    private double rescale(LocalConnect worker, String name, SinkScaleTopics topics, int tasks,
                           SinkScaleCounter counter, Map<TopicPartition, Long> expected) {
        long change = System.nanoTime();
        worker.rest().call("PUT", "/connectors/" + name + "/config", connectorConfig(name, topics.inputs(), tasks),
                200, 201);
        topics.produceOnePerPartition(expected);
        counter.await(topics.targets().size(), change + RUN_CAP.toNanos(), () -> "after tasks.max=" + tasks
                + ", status: " + worker.status(name));
        worker.awaitRunning(name, tasks, Duration.ofSeconds(120));
        return seconds(System.nanoTime() - change);
    }

    private Map<String, String> connectorConfig(String name, List<String> inputs, int tasks) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("connector.class", SinkVsMirrorMakerMode.SINK_CONNECTOR);
        config.put("tasks.max", String.valueOf(tasks));
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

    private void remove(LocalConnect worker, String name, SinkScaleTopics topics) {
        worker.deleteConnector(name);
        Await.until("connector " + name + " to be deleted", Duration.ofSeconds(120),
                () -> !worker.get("/connectors").toString().contains('"' + name + '"'));
        topics.delete();
        try {
            Thread.sleep(5_000); // its tasks stop asynchronously: let them finish before the next size
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while removing " + name, e);
        }
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
