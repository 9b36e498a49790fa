package dev.quarantine.benchmarks;

import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.TopicReader;

/**
 * End-to-end throughput of transactions with poison records on a local broker, three ways side by side in one
 * process: (a) TxnSendProducer with IGNORE_SEND_ERRORS, (b) a plain KafkaProducer that aborts and replays the batch
 * without the failed records, (c) a plain KafkaProducer with no poison, the ceiling. At each poison ratio the three
 * run interleaved, transaction by transaction, so machine noise hits them alike; every measurement is checked against
 * what a read_committed consumer sees.
 *
 * <p>{@code -Drounds=5 -Dtransactions=50} (timed transactions per measurement) change the size of the run;
 * {@code -Dpoison=0,1,10,100} (poison records per thousand) the ratios measured.
 */
public final class TxnSendThroughput {

    enum Mode {
        A("(a) TxnSendProducer, IGNORE_SEND_ERRORS"),
        B("(b) KafkaProducer, abort and replay"),
        C("(c) KafkaProducer, no poison");

        final String label;

        Mode(String label) {
            this.label = label;
        }
    }

    record Run(Mode mode, int poisonPerThousand) {
    }

    /**
     * Records/s from the median transaction time and from the total time; transactions begun per batch; CPU time of
     * the sending thread per record, in µs.
     */
    record Result(double recordsPerSecond, double overallRecordsPerSecond, double attemptsPerTransaction,
                  double cpuMicrosPerRecord) {
    }

    private static final int[] POISON_PER_THOUSAND = poisonRatios(System.getProperty("poison", "0,1,10,100"));
    private static final int PARTITIONS = 3;
    private static final int WARM_UP_TRANSACTIONS = 10;

    private final LocalKafka kafka;
    private final Admin admin;
    private final Map<Mode, TransactionWriter> writers;
    private final Results results = new Results();
    private int topics;

    private TxnSendThroughput(LocalKafka kafka, Admin admin, Map<Mode, TransactionWriter> writers) {
        this.kafka = kafka;
        this.admin = admin;
        this.writers = writers;
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("org.slf4j.simpleLogger.log.org.apache.kafka", "error");
        int rounds = Integer.getInteger("rounds", 5);
        int transactions = Integer.getInteger("transactions", 50);
        Map<Mode, TransactionWriter> writers = new EnumMap<>(Mode.class);
        try (LocalKafka kafka = LocalKafka.create().start(); Admin admin = kafka.admin()) {
            writers.put(Mode.A, SendAndCommitWriter.ignoringSendErrors(producerConfigs(kafka, "bench-a")));
            writers.put(Mode.B, new AbortAndReplayWriter(producerConfigs(kafka, "bench-b")));
            writers.put(Mode.C, SendAndCommitWriter.plain(producerConfigs(kafka, "bench-c")));
            printSetup(rounds, transactions);
            TxnSendThroughput bench = new TxnSendThroughput(kafka, admin, writers);
            bench.round(0, WARM_UP_TRANSACTIONS);
            for (int round = 1; round <= rounds; round++) {
                bench.round(round, transactions);
            }
            bench.results.print(POISON_PER_THOUSAND);
        } finally {
            writers.values().forEach(TransactionWriter::close);
        }
    }

    /** Producer settings shared by all modes: Kafka's defaults, with timeouts a careful user sets. */
    static Map<String, Object> producerConfigs(LocalKafka kafka, String transactionalId) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        configs.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        configs.put(ProducerConfig.CLIENT_ID_CONFIG, transactionalId);
        configs.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        configs.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        configs.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        return configs;
    }

    /**
     * One measurement of every (mode, poison ratio): at each ratio, (a) and (b) interleaved with (c), which never has
     * poison. Round 0 is the warm-up: not recorded, and without 10% poison ((b) would spend half a minute there).
     */
    private void round(int round, int transactions) throws ExecutionException, InterruptedException {
        StringBuilder line = new StringBuilder(round == 0 ? "warm-up:" : "round " + round + ":");
        for (int poison : POISON_PER_THOUSAND) {
            if (round == 0 && poison == 100) {
                continue;
            }
            List<Run> group = List.of(new Run(Mode.C, poison), new Run(Mode.A, poison), new Run(Mode.B, poison));
            for (Measurement measurement : measureTogether(group, transactions)) {
                Result result = measurement.result();
                if (round > 0) {
                    results.add(measurement.run(), result);
                }
                line.append(String.format(" %s@%s=%.0f", measurement.run().mode().name().toLowerCase(),
                        percent(poison), result.recordsPerSecond()));
            }
        }
        System.out.println(line);
    }

    /**
     * (b) takes one attempt per poison record in a transaction (see {@link AbortAndReplayWriter}), 0.1 to 0.3 s each
     * here: it measures fewer transactions as poison grows, to keep the run within minutes.
     */
    private static int transactionsFor(Run run, int transactions) {
        if (run.mode() != Mode.B) {
            return transactions;
        }
        return switch (run.poisonPerThousand()) {
            case 0 -> transactions;
            case 1 -> Math.max(1, transactions / 5);
            case 10 -> Math.max(1, transactions / 10);
            default -> 1;
        };
    }

    /**
     * Gives each run a new topic and primes it, then runs the group's timed transactions interleaved one by one (the
     * order rotating), so noise on the machine hits every mode alike; verifies what was committed, deletes the topics.
     */
    private List<Measurement> measureTogether(List<Run> group, int transactions)
            throws ExecutionException, InterruptedException {
        List<Measurement> measurements = new ArrayList<>();
        for (Run run : group) {
            String topic = "bench-" + run.mode().name().toLowerCase() + "-" + run.poisonPerThousand() + "-" + (++topics);
            createTopic(topic);
            int poison = run.mode() == Mode.C ? 0 : run.poisonPerThousand();
            Workload workload = new Workload(topic, poison, transactionsFor(run, transactions));
            measurements.add(new Measurement(run, workload, writers.get(run.mode())));
        }
        measurements.forEach(Measurement::prime);
        for (int t = 1; t <= transactions; t++) {
            for (int i = 0; i < measurements.size(); i++) {
                measurements.get((i + t) % measurements.size()).writeTimed(t);
            }
        }
        for (Measurement measurement : measurements) {
            verify(measurement);
            admin.deleteTopics(List.of(measurement.workload().topic())).all().get();
        }
        return measurements;
    }

    /**
     * Creates the topic and waits until the broker describes it: right after creation it may still answer "unknown
     * topic" for a moment, and TxnSendProducer then leaves records out for up to a second (see docs/benchmarks.md).
     */
    private void createTopic(String topic) throws InterruptedException {
        kafka.createTopic(topic, PARTITIONS,
                Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, String.valueOf(Workload.TOPIC_MAX_MESSAGE_BYTES)));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                admin.describeTopics(List.of(topic)).allTopicNames().get();
                return;
            } catch (ExecutionException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the broker did not describe the new topic " + topic
                            + " within 10 s", e);
                }
                Thread.sleep(20);
            }
        }
    }

    private void verify(Measurement measurement) {
        Workload workload = measurement.workload();
        String mode = measurement.run().mode().label;
        if (measurement.failed() != workload.poisonCount()) {
            throw new IllegalStateException(mode + ": " + measurement.failed() + " records failed, but the workload had "
                    + workload.poisonCount() + " poison records; failures of this producer so far: "
                    + measurement.failures());
        }
        workload.verify(TopicReader.readCommitted(kafka, workload.topic(), Duration.ofSeconds(120)), mode);
    }

    private static void printSetup(int rounds, int transactions) {
        System.out.printf("txn-send throughput, %s, %d cores, Java %s, Kafka clients and broker 4.4.0 on 127.0.0.1%n",
                LocalDate.now(), Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        System.out.printf("records of %d bytes, %d per transaction, %d topic partitions; a poison is a %d-byte value"
                        + " on a topic with max.message.bytes=%d%n", Workload.RECORD_BYTES,
                Workload.RECORDS_PER_TRANSACTION, PARTITIONS, Workload.POISON_BYTES, Workload.TOPIC_MAX_MESSAGE_BYTES);
        System.out.printf("producers: Kafka defaults (acks=all, idempotent, batch.size=16384, linger.ms=5, no"
                + " compression) and request.timeout.ms=10000, delivery.timeout.ms=30000, max.block.ms=10000%n");
        System.out.printf("(b): send all with a callback each, commit; when a send or the commit throws: abort, drop"
                + " the records whose callback reported their own error, replay the rest in a new transaction%n");
        System.out.printf("per measurement: a new topic, 1 untimed record, then %d timed transactions (b with 0.1%%,"
                        + " 1%%, 10%% poison: %d, %d, 1), interleaved one by one with the other modes at that ratio;"
                        + " %d rounds after a warm-up round; each measurement verified with a read_committed"
                        + " consumer%n", transactions,
                transactionsFor(new Run(Mode.B, 1), transactions), transactionsFor(new Run(Mode.B, 10), transactions),
                rounds);
    }

    private static int[] poisonRatios(String perThousand) {
        int[] ratios = Arrays.stream(perThousand.split(",")).map(String::trim).mapToInt(Integer::parseInt).toArray();
        for (int ratio : ratios) {
            if (ratio < 0 || (ratio > 0 && Workload.RECORDS_PER_TRANSACTION % ratio != 0)) {
                throw new IllegalArgumentException("-Dpoison=" + perThousand + ": each ratio must be 0 or divide "
                        + Workload.RECORDS_PER_TRANSACTION + " (poison records per thousand)");
            }
        }
        return ratios;
    }

    static String percent(int perThousand) {
        return perThousand % 10 == 0 ? perThousand / 10 + "%" : perThousand / 10.0 + "%";
    }
}
