package dev.quarantine.connect.sink;

import java.time.Clock;
import java.time.Duration;

import org.apache.kafka.clients.admin.Admin;

import dev.quarantine.connect.sink.cluster.ClusterAdmins;
import dev.quarantine.connect.sink.cluster.HangingTransactions;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.ownership.LeftOpenCompletion;
import dev.quarantine.connect.sink.ownership.OffsetsOwnership;
import dev.quarantine.connect.sink.ownership.Ownership;
import dev.quarantine.connect.sink.ownership.SlotProducer;
import dev.quarantine.connect.sink.ownership.StageBudget;
import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.connect.sink.write.SlotTopics;
import dev.quarantine.connect.sink.write.TxnSendSlotProducer;
import dev.quarantine.connect.sink.write.WriterFactory;
import dev.quarantine.txn.progress.CompactedTopicReader;

/**
 * The one id Connect's offsets API writes with, {@code <prefix>:offsets#0} (design 2.1), built as {@link TaskSlots}
 * builds a task slot: its producer (each init repairing what the id's last transaction left hanging), its
 * {@link Ownership} fencing through an admin client of the target producer's principal (the fenced ids' hanging
 * aborts repaired on the changed partitions' target topics, the dead-letter and the progress topic) and reading the
 * progress topic, and the completion of what ids of the connector left open there. Closed after the change.
 */
final class OffsetsSlot implements AutoCloseable {

    private static final Duration CLOSE = Duration.ofSeconds(5);

    private final SlotProducer producer;
    private final OffsetsOwnership ownership;
    private final LeftOpenCompletion leftOpen;
    private final Admin fencing;
    private final CompactedTopicReader reader;

    OffsetsSlot(TransactionalSinkConfig config, ClusterAdmins admins, Clock clock) {
        String prefix = config.transactionalIdPrefix();
        HangingTransactions hanging = new HangingTransactions(admins, config.progressReadTimeout(),
                config.progressTopic());
        fencing = Admin.create(TaskSlots.adminOfProducer(config));
        try {
            reader = new CompactedTopicReader(config.adminConfigs(), admins.target());
        } catch (RuntimeException e) {
            fencing.close(CLOSE);
            throw e;
        }
        try {
            producer = WriterFactory.offsetsProducer(config, hanging, TxnSendSlotProducer.describedBy(fencing,
                    config.adminApiTimeout()));
        } catch (RuntimeException e) {
            reader.close();
            fencing.close(CLOSE);
            throw e;
        }
        leftOpen = new LeftOpenCompletion(admins.target(), prefix, config.progressTopic(),
                id -> WriterFactory.completionProducer(config, id));
        StageBudget stages = TaskSlots.stages(config, clock);
        SlotTopics written = new SlotTopics(config.topicFormat()::targetTopic, config.dlqTopic(),
                config.progressTopic());
        Ownership[] owner = new Ownership[1];
        owner[0] = Ownership.of(prefix, config.progressTopic(), OwnershipRecord.offsetsId(prefix), producer, fencing,
                reader, stages, TaskSlots.limits(config), clock, leftOpen, hanging,
                () -> written.withProgress(owner[0].assigned()));
        ownership = new OffsetsOwnership(owner[0], stages);
    }

    SlotProducer producer() {
        return producer;
    }

    OffsetsOwnership ownership() {
        return ownership;
    }

    /** What ids of the connector left open on partition 0 of the progress topic, completed: it holds back reads. */
    void completeLeftOpen(Duration bound) {
        leftOpen.complete(0, bound);
    }

    @Override
    public void close() {
        try {
            producer.close(CLOSE);
        } finally {
            reader.close();
            fencing.close(CLOSE);
        }
    }
}
