package dev.quarantine.connect.sink.write;

import static dev.quarantine.connect.sink.TestData.props;
import static dev.quarantine.connect.sink.TestData.records;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.connect.converters.ByteArrayConverter;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.BytesOrStringHeaderConverter;
import dev.quarantine.connect.sink.TestData;
import dev.quarantine.connect.sink.TestPluginMetrics;
import dev.quarantine.connect.sink.cluster.HangingTransactionCheck.LastTransactions;
import dev.quarantine.connect.sink.cluster.HangingTransactionCheck;
import dev.quarantine.connect.sink.config.TopicFormat;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.metrics.SinkMetrics;
import dev.quarantine.connect.sink.metrics.WorkerPluginMetrics;
import dev.quarantine.connect.sink.progress.ProgressTarget;
import dev.quarantine.txn.DeadLetterBreaker;

/** Opening a task's partitions: the last transactions of their ids asked about together, before any producer. */
class WriterFactoryTest {

    private static final String PREFIX = "sink";

    private final List<String> events = Collections.synchronizedList(new ArrayList<>());

    /** Records what it is asked, in order with the producers' initTransactions; {@code sink:orders-1} was aborted. */
    private final HangingTransactionCheck hanging = new HangingTransactionCheck() {
        @Override
        public boolean lastTransactionAborted(String transactionalId) {
            events.add("asked " + transactionalId);
            return transactionalId.equals(PREFIX + ":orders-1");
        }

        @Override
        public Set<String> lastTransactionsAborted(Collection<String> transactionalIds) {
            events.add("asked together " + transactionalIds);
            return Set.of(PREFIX + ":orders-1");
        }

        @Override
        public void abortBeforeWriting(String transactionalId, Collection<String> topics) {
            events.add("aborting hanging of " + transactionalId);
        }
    };

    @Test
    void asksAboutTheLastTransactionsOfAllPartitionsBeingOpenedInOneGoBeforeAnyProducerIsInitialized() {
        List<TopicPartition> sources = IntStream.range(0, 3).mapToObj(p -> new TopicPartition("orders", p)).toList();
        try (WriterFactory factory = factory()) {
            Function<TopicPartition, PartitionWriter> opening = factory.opening(sources);
            List<PartitionWriter> writers = sources.stream().map(opening).toList();

            assertThat(events).containsExactly("asked together [sink:orders-0, sink:orders-1, sink:orders-2]",
                    "init sink:orders-0", "init sink:orders-1", "init sink:orders-2");
            events.clear();
            for (PartitionWriter writer : writers) {
                writer.add(records("orders", writer.source().partition(), 0, 1), 0);
                writer.write(Instant.MAX);
            }
            assertThat(events).as("only the writer whose id's last transaction was aborted looks for what it left")
                    .containsExactly("aborting hanging of sink:orders-1");
            writers.forEach(PartitionWriter::close);
        }
    }

    @Test
    void failsOnlyThePartitionWhoseIdsDescriptionFailedNamingIt() {
        List<TopicPartition> sources = IntStream.range(0, 3).mapToObj(p -> new TopicPartition("orders", p)).toList();
        RetriableException noAnswer = new RetriableException("Could not describe transactional id sink:orders-2");
        HangingTransactionCheck oneFailing = new HangingTransactionCheck() {
            @Override
            public boolean lastTransactionAborted(String transactionalId) {
                return false;
            }

            @Override
            public LastTransactions describeLastTransactions(Collection<String> transactionalIds) {
                return new LastTransactions(Set.of(), Map.of(PREFIX + ":orders-2", noAnswer));
            }

            @Override
            public void abortBeforeWriting(String transactionalId, Collection<String> topics) {
            }
        };
        try (WriterFactory factory = factory(oneFailing)) {
            Function<TopicPartition, PartitionWriter> opening = factory.opening(sources);

            opening.apply(sources.get(0)).close();
            opening.apply(sources.get(1)).close();
            assertThatThrownBy(() -> opening.apply(sources.get(2))).isSameAs(noAnswer);
        }
        assertThat(events).as("no producer for the partition whose id was not described")
                .containsExactly("init sink:orders-0", "init sink:orders-1");
    }

    @Test
    void asksAboutOnePartitionAloneWhenReestablishingIt() {
        try (WriterFactory factory = factory()) {
            factory.create(new TopicPartition("orders", 4)).close();
        }

        assertThat(events).containsExactly("asked sink:orders-4", "init sink:orders-4");
    }

    private WriterFactory factory() {
        return factory(hanging);
    }

    private WriterFactory factory(HangingTransactionCheck check) {
        TransactionalSinkConfig config = TransactionalSinkConfig.parse(props("name", "writers", "topics", "orders",
                "target.bootstrap.servers", "127.0.0.1:9", "transactional.id.prefix", PREFIX,
                "send.errors.tolerance", "none", "target.producer.txn.send.topic.checks.enable", "false"));
        RecordConverter converter = new RecordConverter(new TopicFormat("${topic}"), TestData.targetTopicsNeverSeen(),
                new ByteArrayConverter(), new ByteArrayConverter(), new BytesOrStringHeaderConverter());
        WriteSetup setup = new WriteSetup(converter, Optional.empty(),
                new SinkMetrics(new WorkerPluginMetrics(new TestPluginMetrics())), new DeadLetterBreaker(100, 1.0),
                ProgressTarget.known("progress", Uuid.randomUuid()), 1, check);
        return new WriterFactory(config, setup, configs -> new ScriptedProducer() {
            @Override
            public void initTransactions() {
                events.add("init " + configs.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG));
                super.initTransactions();
            }
        });
    }
}
