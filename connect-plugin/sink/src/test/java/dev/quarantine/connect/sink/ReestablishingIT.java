package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.connect.sink.TestData.values;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

/**
 * Re-establishing partitions on a real broker, driven as Connect's worker drives a task (issue 22, items 3 and 6):
 * a put that re-establishes one partition while another fails transiently loses nothing once Connect delivers the
 * failed batch again, and a task whose writer was fenced does not fence the new owner before its consumer's next
 * poll.
 */
@ExtendWith(LocalKafkaExtension.class)
class ReestablishingIT {

    private final LocalKafka kafka;
    private final TaskFixture fixture;
    private final TopicPartition first;
    private final TopicPartition second;

    ReestablishingIT(LocalKafka kafka) {
        this.kafka = kafka;
        fixture = new TaskFixture(kafka, "reestablish", "commit.interval.ms", "30000", "commit.max.records", "30");
        fixture.createTopics();
        kafka.createTopic("copy." + fixture.source + "-b", 2, Map.of()); // partition 1: for probes
        first = new TopicPartition(fixture.source, 0);
        second = new TopicPartition(fixture.source + "-b", 0);
    }

    @AfterEach
    void stopTasks() {
        fixture.stopTasks();
    }

    @Test
    void losesNothingWhenAPutReestablishesOnePartitionAndAnotherFailsTransiently() throws Exception {
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        context.assigned.addAll(List.of(first, second));
        TransactionalKafkaSinkTask task = fixture.start(context, "topics", first.topic() + "," + second.topic(),
                "commit.interval.ms", "1000", "transaction.retries", "0", "target.producer.request.timeout.ms", "5000",
                "target.producer.delivery.timeout.ms", "8000");
        task.open(List.of(first, second));
        putUntilAccepted(task, records(first.topic(), 0, 0, 30)); // committed: progress 30
        putUntilAccepted(task, records(first.topic(), 0, 30, 40)); // waits
        try (Admin admin = kafka.admin()) {
            admin.fenceProducers(List.of(WriterFactory.transactionalId(fixture.source, first))).all()
                    .get(30, TimeUnit.SECONDS);
        }
        minInsyncReplicas("copy." + second.topic(), "2"); // one broker: its writes fail with NOT_ENOUGH_REPLICAS
        awaitWritesRefused("copy." + second.topic());
        List<SinkRecord> due = new ArrayList<>(records(first.topic(), 0, 40, 50));
        due.addAll(records(second.topic(), 0, 0, 10));
        RedeliveringWorker worker = new RedeliveringWorker(task, context, Map.of(first, 50L, second, 10L),
                Map.of(first, 80L, second, 40L));

        try {
            task.put(due); // the first partition fenced, the second failing transiently
        } catch (RetriableException e) {
            worker.failed(due);
        }
        minInsyncReplicas("copy." + second.topic(), "1");
        Await.until("both partitions committed to their ends", Duration.ofSeconds(60), () -> {
            worker.round(10);
            Map<TopicPartition, OffsetAndMetadata> progress = task.preCommit(Map.of());
            return new OffsetAndMetadata(80).equals(progress.get(first))
                    && new OffsetAndMetadata(40).equals(progress.get(second));
        });

        assertThat(values(committed(kafka, "copy." + first.topic()))).as("every record once, none skipped")
                .containsExactlyElementsOf(IntStream.range(0, 80).mapToObj(i -> "v" + i).toList());
        assertThat(values(committed(kafka, "copy." + second.topic()).stream().filter(r -> r.partition() == 0)
                .toList())).containsExactlyElementsOf(IntStream.range(0, 40).mapToObj(i -> "v" + i).toList());
    }

    @Test
    void aFencedTaskWhoseConsumerStillListsThePartitionDoesNotFenceTheNewOwnerBeforeItsNextPoll() {
        FakeSinkTaskContext zombieContext = new FakeSinkTaskContext();
        zombieContext.assigned.add(first);
        TransactionalKafkaSinkTask zombie = fixture.start(zombieContext);
        zombie.open(List.of(first));
        zombie.put(records(first.topic(), 0, 0, 30)); // committed
        FakeSinkTaskContext ownerContext = new FakeSinkTaskContext();
        ownerContext.assigned.add(first);
        TransactionalKafkaSinkTask owner = fixture.start(ownerContext);
        owner.open(List.of(first)); // fences the zombie, whose consumer has not yet seen the rebalance

        zombie.put(records(first.topic(), 0, 30, 60)); // fenced, with the partition still in its assignment
        assertThat(zombieContext.seeks).as("sought back to its committed progress").containsEntry(first, 30L);
        zombieContext.assigned.clear(); // its next poll: the rebalance reaches it, Connect closes the partition
        zombie.close(List.of(first));
        owner.put(records(first.topic(), 0, 30, 60));

        assertThat(ownerContext.metrics.value("partitions-reestablished-total")).as("the owner was never fenced")
                .isEqualTo(0.0);
        assertThat(owner.preCommit(Map.of())).containsEntry(first, new OffsetAndMetadata(60));
        assertThat(values(committed(kafka, fixture.target)))
                .containsExactlyElementsOf(IntStream.range(0, 60).mapToObj(i -> "v" + i).toList());
        assertThat(zombie.preCommit(Map.of())).as("the zombie closed the partition").isEmpty();
    }

    /** Puts the batch again while it fails transiently, as the worker delivers it again (a busy test machine). */
    private static void putUntilAccepted(TransactionalKafkaSinkTask task, List<SinkRecord> batch) {
        Await.until("the put accepted", Duration.ofSeconds(60), () -> {
            try {
                task.put(batch);
                return true;
            } catch (RetriableException e) {
                return false;
            }
        });
    }

    /**
     * Waits until the broker applies the topic's new min.insync.replicas: an acks=all write to its partition 1, which
     * the task does not write, is not acknowledged.
     */
    private void awaitWritesRefused(String topic) {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        props.put(ProducerConfig.RETRIES_CONFIG, "0"); // the broker's refusal itself, not a delivery timeout
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "3000");
        try (KafkaProducer<byte[], byte[]> probe =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            Await.until("writes to " + topic + " not acknowledged for want of in-sync replicas", Duration.ofSeconds(60), () -> {
                try {
                    probe.send(new ProducerRecord<>(topic, 1, null, TestData.bytes("probe"))).get();
                    return false;
                } catch (ExecutionException e) {
                    // refused (NOT_ENOUGH_REPLICAS), or held until the request timed out (KRaft's eligible leader
                    // replicas make the leader wait for the minimum ISR): either way not acknowledged
                    return e.getCause() instanceof NotEnoughReplicasException
                            || e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            });
        }
    }

    private void minInsyncReplicas(String topic, String value) throws Exception {
        try (Admin admin = kafka.admin()) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(
                    new ConfigEntry("min.insync.replicas", value), AlterConfigOp.OpType.SET)))).all()
                    .get(30, TimeUnit.SECONDS);
        }
    }
}
