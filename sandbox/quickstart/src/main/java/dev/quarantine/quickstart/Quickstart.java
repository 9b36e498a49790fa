package dev.quarantine.quickstart;

import java.io.Console;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.TopicReader;
import dev.quarantine.txn.DeadLetter;
import dev.quarantine.txn.DeadLetterRecordBuilder;
import dev.quarantine.txn.TxnSendOption;
import dev.quarantine.txn.TxnSendProducer;

/**
 * The demo behind {@code bin/quickstart}: one transaction of ten orders, three of them poison, sent once with
 * {@link TxnSendOption#IGNORE_SEND_ERRORS} (good records commit, poison goes to a dead-letter topic in the same
 * transaction) and once with {@link TxnSendOption#NONE} (stock Kafka: the whole transaction is lost).
 */
public final class Quickstart {

    /** What each run left in Kafka, as a read_committed consumer sees it. */
    public record Outcome(int committed, int deadLettered) {
    }

    private static final int ORDERS = 10;
    private final LocalKafka kafka;
    private final PrintStream out;

    public Quickstart(LocalKafka kafka, PrintStream out) {
        this.kafka = kafka;
        this.out = out;
    }

    /** Where bin/quickstart finds the plugin archive and the worker classpath that {@code mvn package} built. */
    static final Path PLUGIN_PATH = Path.of(System.getProperty("quarantine.plugin.path", "connect-plugin/archive/target/plugin"));
    static final Path WORKER_CLASSPATH = Path.of(System.getProperty("quarantine.worker.classpath",
            "connect-plugin/archive/target/connect-worker-classpath.txt"));

    public static void main(String[] args) {
        System.out.println("Starting a local Kafka broker (KRaft, 127.0.0.1) ...");
        try (LocalKafka kafka = LocalKafka.create().start()) {
            System.out.println("Kafka is up on " + kafka.bootstrapServers() + "\n");
            new Quickstart(kafka, System.out).run(TxnSendOption.IGNORE_SEND_ERRORS);
            new Quickstart(kafka, System.out).run(TxnSendOption.NONE);
            new ConnectQuickstart(kafka, PLUGIN_PATH, WORKER_CLASSPATH, System.out).run(Quickstart::holdIfInteractive);
        }
    }

    /** From a terminal, keeps Kafka and the worker up until Enter, so that the dashboard can be looked at. */
    private static void holdIfInteractive(String dashboard) {
        Console console = System.console();
        if (console != null) {
            console.readLine("%n  Open %s in a browser; press Enter to stop the worker and Kafka.%n", dashboard);
        }
    }

    /** Sends the ten orders in one transaction with {@code option} and prints what landed where. */
    public Outcome run(TxnSendOption option) {
        String prefix = option == TxnSendOption.NONE ? "stock" : "quarantine";
        Topics topics = Topics.create(kafka, prefix);
        out.printf("== One transaction of %d orders with TxnSendOption.%s ==%n", ORDERS, option);
        try (TxnSendProducer<byte[], byte[]> producer = producer(prefix)) {
            producer.initTransactions();
            producer.beginTransaction();
            List<ProducerRecord<byte[], byte[]>> orders = topics.orders(ORDERS);
            boolean healthy = option == TxnSendOption.NONE
                    ? sendStock(producer, orders)
                    : sendIgnoringErrors(producer, orders, topics.deadLetter());
            commitOrAbort(producer, healthy);
        }
        Outcome outcome = new Outcome(count(topics.orders()) + count(topics.customers()), count(topics.deadLetter()));
        out.printf("  committed: %d orders in %s and %s; %d in dead-letter topic %s%n%n", outcome.committed(),
                topics.orders(), topics.customers(), outcome.deadLettered(), topics.deadLetter());
        return outcome;
    }

    private boolean sendIgnoringErrors(TxnSendProducer<byte[], byte[]> producer,
                                       List<ProducerRecord<byte[], byte[]>> orders, String deadLetterTopic) {
        DeadLetterRecordBuilder deadLetters = new DeadLetterRecordBuilder(deadLetterTopic,
                DeadLetterRecordBuilder.HeaderStyle.CONNECT, 64 * 1024);
        List<ProducerRecord<byte[], byte[]>> toDeadLetter = new ArrayList<>();
        for (int i = 0; i < orders.size(); i++) {
            ProducerRecord<byte[], byte[]> order = orders.get(i);
            Future<RecordMetadata> result = producer.send(order, null, TxnSendOption.IGNORE_SEND_ERRORS);
            Throwable error = failure(result);
            if (error != null) {
                out.printf("  left out  order %2d -> %-24s %s: %s%n", i + 1, order.topic(),
                        error.getClass().getSimpleName(), error.getMessage());
                toDeadLetter.add(deadLetters.build(DeadLetter.of(order.key(), order.value(), order.headers().toArray(),
                        error).target(order.topic(), order.partition())));
            }
        }
        toDeadLetter.forEach(record -> producer.send(record, null, TxnSendOption.IGNORE_SEND_ERRORS));
        out.printf("  sent %d dead letters in the same transaction%n", toDeadLetter.size());
        return true;
    }

    private boolean sendStock(TxnSendProducer<byte[], byte[]> producer, List<ProducerRecord<byte[], byte[]>> orders) {
        boolean healthy = true;
        for (int i = 0; i < orders.size(); i++) {
            try {
                Throwable error = failure(producer.send(orders.get(i), null, TxnSendOption.NONE));
                if (error != null) {
                    out.printf("  failed    order %2d -> %-24s %s%n", i + 1, orders.get(i).topic(),
                            error.getClass().getSimpleName());
                    healthy = false;
                }
            } catch (KafkaException e) {
                out.printf("  refused   order %2d: %s%n", i + 1, e.getMessage());
                healthy = false;
            }
        }
        return healthy;
    }

    private void commitOrAbort(TxnSendProducer<byte[], byte[]> producer, boolean healthy) {
        try {
            producer.commitTransaction();
            out.println("  commitTransaction() succeeded");
        } catch (KafkaException e) {
            out.printf("  commitTransaction() failed (%s): aborting the whole transaction%n",
                    e.getClass().getSimpleName());
            producer.abortTransaction();
        }
    }

    private TxnSendProducer<byte[], byte[]> producer(String prefix) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        configs.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, prefix + "-quickstart");
        configs.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        configs.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 5_000);
        configs.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 3_000);
        return new TxnSendProducer<>(configs, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private int count(String topic) {
        return TopicReader.readCommitted(kafka, topic, Duration.ofSeconds(30)).size();
    }

    /** The exception of a send that already failed, or null while it is pending or after it succeeded. */
    private static Throwable failure(Future<RecordMetadata> result) {
        if (!result.isDone()) {
            return null;
        }
        try {
            result.get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static byte[] utf8(String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }
}
