package dev.quarantine.connect.sink.ownership;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

import dev.quarantine.connect.sink.ownership.Ownership.Opening;
import dev.quarantine.connect.sink.ownership.SlotProducer.End;
import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.write.WriterFactory;
import dev.quarantine.txn.TxnSendOption;

/**
 * One task slot of a harness test: the real {@link Ownership} over the model's producer, fencer and progress topic,
 * each seam call labelled for the {@link Script}. Its writes stand in for step 4b's transaction (not wired yet): the
 * records of a source partition from its committed progress on, to the same partition of the target topic, and the
 * progress record with {@code holder} and {@code claim}, in one transaction of the slot's producer.
 */
final class HarnessTask {

    static final String PREFIX = "copy";
    static final String PROGRESS = "copy-progress";
    static final String TARGET = "orders-copy";
    private static final Uuid TOPIC_ID = Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAQ");
    private static final int MAX_PUTS = 20;

    final String id;
    final Labelled labels;
    final Ownership ownership;
    private final ModelCoordinator model;
    private final SlotProducer producer;
    private final StageBudget budget;

    HarnessTask(ModelCoordinator model, String party, int task, Clock clock) {
        this(model, party, OwnershipRecord.taskId(PREFIX, task, 0), clock);
    }

    /** A holder of id {@code id}: a task slot's, or the offsets API's ({@link OwnershipRecord#offsetsId}). */
    HarnessTask(ModelCoordinator model, String party, String id, Clock clock) {
        this.model = model;
        this.id = id;
        this.labels = new Labelled(party);
        this.producer = labels.producer(new ModelProducer(model, id));
        this.budget = new StageBudget(Duration.ofMinutes(5), Duration.ofMinutes(1), Duration.ofSeconds(30),
                Duration.ofSeconds(30), clock);
        this.ownership = new Ownership(PREFIX, PROGRESS, id, new Ownership.Seams(producer,
                labels.fencer(new ModelFencer(model)), labels.log(new ModelLog(model, PROGRESS, PREFIX))), budget,
                new Ownership.Limits(Duration.ofMinutes(5), Duration.ofSeconds(45)), clock);
    }

    /** One put's stages. */
    Opening put() {
        return ownership.advance(budget.startPut());
    }

    /** Puts until {@code partition}'s state passes {@code settled}; fails past a bound of puts. */
    void putUntil(TopicPartition partition, Predicate<PartitionState> settled) {
        for (int i = 0; i < MAX_PUTS; i++) {
            Opening opening = put();
            if (opening instanceof Opening.Failed failed) {
                throw failed.cause();
            }
            if (ownership.state(partition).filter(settled).isPresent()) {
                return;
            }
        }
        throw new AssertionError(partition + " still " + ownership.state(partition) + " after " + MAX_PUTS + " puts");
    }

    void own(TopicPartition... partitions) {
        ownership.open(List.of(partitions));
        for (TopicPartition partition : partitions) {
            putUntil(partition, PartitionState::writable);
        }
    }

    /**
     * Writes {@code count} records of each of {@code partitions} from its committed progress and the progress after
     * them, in one transaction; tells the ownership how it ended.
     */
    End write(int count, TopicPartition... partitions) {
        producer.begin();
        for (TopicPartition partition : partitions) {
            long claim = ((PartitionState.Owned) ownership.state(partition).orElseThrow()).claim();
            long from = next(partition);
            for (long offset = from; offset < from + count; offset++) {
                producer.send(new ProducerRecord<>(TARGET, partition.partition(), null,
                        value(partition, offset).getBytes(UTF_8)), TxnSendOption.NONE);
            }
            producer.send(new ProgressRecord(from, from + count, TOPIC_ID, Optional.empty(), Map.of(),
                    Optional.empty()).withOwnership(new ProgressRecord.Holder(id, claim), Map.of())
                    .toRecord(new TopicPartition(PROGRESS, 0), WriterFactory.transactionalId(PREFIX, partition),
                            partition), TxnSendOption.NONE);
        }
        End end = producer.commit();
        if (end instanceof End.Done) {
            ownership.committed();
        } else if (end instanceof End.Fenced) {
            ownership.fenced(false);
        }
        return end;
    }

    /** The offsets API's way to own partitions: advanced put after put until every one is OWNED. */
    OffsetsOwnership offsets() {
        return new OffsetsOwnership(ownership, budget);
    }

    /** Commits {@code partition}'s progress alone, {@code next}, under the claim it is OWNED under (the offsets API). */
    End setProgress(TopicPartition partition, long next) {
        long claim = ownership.ownedUnder(partition).orElseThrow();
        producer.begin();
        producer.send(new ProgressRecord(next, TOPIC_ID).withOwnership(new ProgressRecord.Holder(id, claim), Map.of())
                .toRecord(new TopicPartition(PROGRESS, 0), WriterFactory.transactionalId(PREFIX, partition), partition),
                TxnSendOption.NONE);
        return producer.commit();
    }

    End write(TopicPartition partition, int count) {
        return write(count, partition);
    }

    /** The committed progress of {@code partition} as a {@code read_committed} reader sees it now; 0 without one. */
    long next(TopicPartition partition) {
        String key = WriterFactory.transactionalId(PREFIX, partition);
        return model.partition(new TopicPartition(PROGRESS, 0)).readCommitted(0).stream()
                .filter(record -> new String(record.key(), UTF_8).equals(key))
                .reduce((a, b) -> b).map(record -> ProgressRecord.parse(record.value()).next()).orElse(0L);
    }

    static String value(TopicPartition partition, long offset) {
        return partition + "@" + offset;
    }
}
