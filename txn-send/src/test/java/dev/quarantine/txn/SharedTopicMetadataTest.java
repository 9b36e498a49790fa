package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** Producers reading one {@link SharedTopicMetadata}: one describe call per topic for all, and who closes what. */
class SharedTopicMetadataTest {

    /** A cluster with one topic, orders, counting what it is asked and whether it was closed. */
    private static final class CountingDescriber implements TopicDescriber {
        final AtomicInteger describes = new AtomicInteger();
        final AtomicInteger closes = new AtomicInteger();

        @Override
        public CompletableFuture<TopicInfo> describe(String topic) {
            describes.incrementAndGet();
            return CompletableFuture.completedFuture("orders".equals(topic) ? TopicInfo.withoutConfigs(3)
                    : TopicInfo.missing());
        }

        @Override
        public CompletableFuture<Boolean> autoCreateEnabled() {
            return CompletableFuture.completedFuture(false);
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }

    private final CountingDescriber cluster = new CountingDescriber();
    private final SharedTopicMetadata shared = new SharedTopicMetadata(
            new TopicMetadataCache(cluster, Duration.ofMinutes(1), Duration.ofSeconds(5), Duration.ZERO));

    @Test
    void producersSharingTheCacheDescribeATopicOnceBetweenThem() {
        try (TxnSendProducer<byte[], byte[]> first = producer("first");
             TxnSendProducer<byte[], byte[]> second = producer("second")) {
            assertThat(sendInATransaction(first, "orders")).isTrue();
            assertThat(sendInATransaction(second, "orders")).isTrue();
            assertThat(first.maxRecordBytes("orders")).isEqualTo(second.maxRecordBytes("orders"));
        }
        assertThat(cluster.describes).as("describe calls for topic orders from two producers").hasValue(1);
    }

    @Test
    void closingAProducerLeavesTheSharedCacheWorkingForTheOthersAndItsOwnerClosesIt() {
        TxnSendProducer<byte[], byte[]> first = producer("first");
        TxnSendProducer<byte[], byte[]> second = producer("second");
        sendInATransaction(first, "orders");
        first.close();

        assertThat(cluster.closes).as("the shared cache is not closed by a producer").hasValue(0);
        assertThat(sendInATransaction(second, "orders")).isTrue();
        assertThat(cluster.describes).hasValue(1);
        assertThat(sendInATransaction(second, "missing")).as("a topic the cluster does not know is checked").isFalse();
        second.close();
        assertThat(cluster.closes).hasValue(0);
        shared.close();
        assertThat(cluster.closes).hasValue(1);
    }

    @Test
    void aGateClosesTheCacheItCreatedItself() {
        TopicMetadataCache own = new TopicMetadataCache(cluster, Duration.ofMinutes(1), Duration.ofSeconds(5),
                Duration.ZERO);
        RecordGate<byte[], byte[]> gate = new RecordGate<>(RecordSerializer.separate(Map.of(),
                new ByteArraySerializer(), new ByteArraySerializer()),
                new RecordChecks(1_000_000, 1_000_000, own), own);

        gate.close();

        assertThat(cluster.closes).hasValue(1);
    }

    @Test
    void aProducerReadingAClosedSharedCacheThrowsInsteadOfLeavingTheRecordOut() {
        SharedTopicMetadata closed = new SharedTopicMetadata(new TopicMetadataCache(new AdminTopicDescriber(() -> {
            throw new AssertionError("an admin client created after close");
        }), Duration.ofMinutes(1), Duration.ofSeconds(5), Duration.ZERO));
        closed.close();
        TxnSendProducer<byte[], byte[]> producer = producer("late", closed);
        producer.beginTransaction();

        assertThatThrownBy(() -> producer.send(new ProducerRecord<>("orders", new byte[] {1}), null,
                TxnSendOption.IGNORE_SEND_ERRORS)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        producer.close();
    }

    /** Whether the record was admitted (not left out) in a committed transaction. */
    private static boolean sendInATransaction(TxnSendProducer<byte[], byte[]> producer, String topic) {
        CompletableFuture<Exception> outcome = new CompletableFuture<>();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(topic, new byte[] {1}), (metadata, error) -> outcome.complete(error),
                TxnSendOption.IGNORE_SEND_ERRORS);
        producer.commitTransaction();
        return outcome.join() == null;
    }

    private TxnSendProducer<byte[], byte[]> producer(String transactionalId) {
        return producer(transactionalId, shared);
    }

    private static TxnSendProducer<byte[], byte[]> producer(String transactionalId, SharedTopicMetadata topics) {
        MockProducer<byte[], byte[]> mock = new MockProducer<>(true, null, new ByteArraySerializer(),
                new ByteArraySerializer());
        TxnSendProducer<byte[], byte[]> producer = TxnSendProducer.wrap(mock, Map.of(
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9"),
                new ByteArraySerializer(), new ByteArraySerializer(), topics);
        producer.initTransactions();
        return producer;
    }
}
