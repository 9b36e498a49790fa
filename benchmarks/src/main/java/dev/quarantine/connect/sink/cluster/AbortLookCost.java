package dev.quarantine.connect.sink.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.sandbox.LocalKafka;

/**
 * What the sink's look before an abort ({@link OpenTransactionLook}: describeTransactions, describeProducers) adds to
 * an abort: one local KRaft broker, one transactional producer that committed a record to a target partition (so a
 * running writer would look), then rounds of one transaction each (a record sent and flushed, then aborted),
 * alternately aborted as main does and after the look, timed from the moment the transaction failed to the end of
 * its abort. Prints the median and mean of both and their ratio.
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -Drounds=400 -cp benchmarks/target/benchmarks.jar dev.quarantine.connect.sink.cluster.AbortLookCost
 * </pre>
 */
public final class AbortLookCost {

    private AbortLookCost() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.getInteger("rounds", 400);
        try (LocalKafka kafka = LocalKafka.create().start()) {
            kafka.createTopic("look-target", 1, Map.of());
            TopicPartition target = new TopicPartition("look-target", 0);
            Properties props = kafka.clientProps();
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "look");
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                    new ByteArraySerializer());
                 ClusterAdmins admins = new ClusterAdmins(Map.of("bootstrap.servers", kafka.bootstrapServers()),
                         Map.of())) {
                OpenTransactionLook look = new OpenTransactionLook(admins);
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(target.topic(), 0, null, new byte[1024]));
                producer.commitTransaction();
                List<Long> plain = new ArrayList<>();
                List<Long> looked = new ArrayList<>();
                for (int round = 0; round < rounds + 20; round++) {
                    boolean withLook = round % 2 == 1;
                    producer.beginTransaction();
                    producer.send(new ProducerRecord<>(target.topic(), 0, null, new byte[1024]));
                    producer.flush();
                    long start = System.nanoTime();
                    if (withLook && !look.openFrom("look", Set.of(target),
                            Instant.now().plus(Duration.ofSeconds(30))).containsKey(target)) {
                        throw new IllegalStateException("the look did not find the transaction open on " + target);
                    }
                    producer.abortTransaction();
                    long micros = (System.nanoTime() - start) / 1_000;
                    if (round >= 20) { // the first rounds warm the clients up
                        (withLook ? looked : plain).add(micros);
                    }
                }
                System.out.printf("abort look cost: %d aborts each way, load average %s%n", plain.size(),
                        loadAverage());
                System.out.printf("  abort as on main:      median %.2f ms, mean %.2f ms%n", median(plain) / 1000.0,
                        mean(plain) / 1000.0);
                System.out.printf("  look, then abort:      median %.2f ms, mean %.2f ms%n", median(looked) / 1000.0,
                        mean(looked) / 1000.0);
                System.out.printf("  ratio look+abort / abort: median %.2f, mean %.2f%n",
                        median(looked) / median(plain), mean(looked) / mean(plain));
            }
        }
    }

    private static double median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    private static double mean(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).average().orElseThrow();
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
