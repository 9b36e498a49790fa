package dev.quarantine.connect.sink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.DescribeTransactionsOptions;
import org.apache.kafka.clients.admin.DescribeTransactionsResult;
import org.apache.kafka.clients.admin.ForwardingAdmin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

/**
 * The last transactions of many transactional ids, asked about together against the real broker: the same answers
 * as one id at a time, in describeTransactions calls of at most {@link TransactionAdmin#IDS_PER_DESCRIBE} ids.
 */
@ExtendWith(LocalKafkaExtension.class)
class LastTransactionsIT {

    private final LocalKafka kafka;
    private final String prefix = "last-" + UUID.randomUUID().toString().substring(0, 8);
    private final String topic = prefix + ".target";
    /** The ids of each describeTransactions call, in order. */
    private final List<List<String>> calls = Collections.synchronizedList(new ArrayList<>());

    LastTransactionsIT(LocalKafka kafka) {
        this.kafka = kafka;
        kafka.createTopic(topic, 1, Map.of());
    }

    @Test
    void answersForEveryIdAsOneAtATimeWouldInOneCall() {
        String aborted = prefix + ".aborted";
        String committed = prefix + ".committed";
        String ongoing = prefix + ".ongoing";
        String unknown = prefix + ".unknown";
        endTransaction(aborted, false);
        endTransaction(committed, true);
        try (KafkaProducer<byte[], byte[]> open = producer(ongoing)) {
            open.initTransactions();
            open.beginTransaction();
            open.send(new ProducerRecord<>(topic, new byte[] {1}));
            open.flush();

            try (ClusterAdmins admins = countingAdmins()) {
                HangingTransactions check = new HangingTransactions(admins, Duration.ofSeconds(60), "progress");
                assertThat(check.lastTransactionsAborted(List.of(aborted, committed, ongoing, unknown)))
                        .as("the ids whose last transaction was, or is to be, aborted")
                        .containsExactlyInAnyOrder(aborted, ongoing);
                assertThat(calls).containsExactly(List.of(aborted, committed, ongoing, unknown));
                for (String id : List.of(aborted, committed, ongoing, unknown)) {
                    assertThat(check.lastTransactionAborted(id)).as(id + " alone")
                            .isEqualTo(id.equals(aborted) || id.equals(ongoing));
                }
            }
        }
    }

    @Test
    void asksAboutManyIdsInBoundedCalls() {
        int count = 2 * TransactionAdmin.IDS_PER_DESCRIBE + 1;
        List<String> ids = IntStream.range(0, count).mapToObj(i -> prefix + ".never-" + i).toList();

        try (ClusterAdmins admins = countingAdmins()) {
            assertThat(new HangingTransactions(admins, Duration.ofSeconds(60), "progress").lastTransactionsAborted(ids))
                    .as("ids without a transaction").isEmpty();
        }

        assertThat(calls).extracting(List::size).containsExactly(TransactionAdmin.IDS_PER_DESCRIBE,
                TransactionAdmin.IDS_PER_DESCRIBE, 1);
    }

    /**
     * Issue 22: one id's answer failing (here its describeTransactions call timing out in the admin client) fails that
     * id alone, naming it; the answers of the ids described in the other calls stand.
     */
    @Test
    void oneIdsFailedAnswerFailsThatIdAloneNamingIt() {
        String aborted = prefix + ".aborted";
        endTransaction(aborted, false);
        List<String> ids = new ArrayList<>(List.of(aborted));
        IntStream.range(1, TransactionAdmin.IDS_PER_DESCRIBE).forEach(i -> ids.add(prefix + ".never-" + i));
        String unanswered = prefix + ".unanswered";
        ids.add(unanswered); // alone in the second call
        Map<String, Object> configs = Map.of("bootstrap.servers", kafka.bootstrapServers());

        HangingTransactionCheck.LastTransactions last;
        try (ClusterAdmins admins = new ClusterAdmins(configs, configs, adminConfigs -> new ForwardingAdmin(
                adminConfigs) {
            @Override
            public DescribeTransactionsResult describeTransactions(Collection<String> transactionalIds,
                                                                   DescribeTransactionsOptions options) {
                return super.describeTransactions(transactionalIds, transactionalIds.contains(unanswered)
                        ? new DescribeTransactionsOptions().timeoutMs(1) : options);
            }
        })) {
            last = new HangingTransactions(admins, Duration.ofSeconds(60), "progress").describeLastTransactions(ids);
        }

        assertThat(last.aborted()).as("the answers of the other call stand").containsExactly(aborted);
        assertThat(last.failed()).containsOnlyKeys(unanswered);
        assertThat(last.failed().get(unanswered)).isInstanceOf(RetriableException.class)
                .hasMessageContaining("transactional id " + unanswered);
    }

    private ClusterAdmins countingAdmins() {
        Map<String, Object> configs = Map.of("bootstrap.servers", kafka.bootstrapServers());
        return new ClusterAdmins(configs, configs, adminConfigs -> new ForwardingAdmin(adminConfigs) {
            @Override
            public DescribeTransactionsResult describeTransactions(Collection<String> transactionalIds,
                                                                   DescribeTransactionsOptions options) {
                calls.add(List.copyOf(transactionalIds));
                return super.describeTransactions(transactionalIds, options);
            }
        });
    }

    private void endTransaction(String transactionalId, boolean commit) {
        try (KafkaProducer<byte[], byte[]> producer = producer(transactionalId)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, new byte[] {1}));
            producer.flush();
            if (commit) {
                producer.commitTransaction();
            } else {
                producer.abortTransaction();
            }
        }
    }

    private KafkaProducer<byte[], byte[]> producer(String transactionalId) {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
