package dev.quarantine.connect.sink.progress;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.cluster.ClusterAdmins;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.ownership.OffsetsOwnership;
import dev.quarantine.connect.sink.ownership.SlotProducer;
import dev.quarantine.connect.sink.progress.ProgressRecord.Holder;
import dev.quarantine.connect.sink.write.SlotAnswers;
import dev.quarantine.connect.sink.write.WriterFactory;
import dev.quarantine.txn.TxnSendOption;

/**
 * Connect's offsets REST API (KIP-875) for this connector: its tasks resume from the progress records, not from
 * Connect's consumer group, so altering or resetting offsets has to change the progress records. Connect only allows
 * it while the connector is STOPPED, but a zombie task (a worker that lost contact) may still write: so the change is
 * written by the offsets API's own id, {@code <prefix>:offsets#0} (design 2.1), as a task slot writes: the changed
 * partitions are claimed on partition 1 of the progress topic, their earlier holders fenced (rule F) and their
 * progress read ({@link OffsetsOwnership}), then every new progress record, or tombstone, is committed in ONE
 * transaction of that id. Each record names {@code offsets#0} and its claim ({@code holder}, {@code claim}), so the
 * partition's next claimant fences {@code offsets#0} too; a zombie that initialises again after the fence reads the
 * later claim and pauses the partition.
 *
 * <p>An altered offset keeps the target partition counts of the last record, and carries the id the source topic
 * has now (as the source cluster shows it, passed in): the offset is the operator's, given for the topic as it is, so a
 * topic deleted and created again is resumed at it, not started over. A reset writes a tombstone, so the partition
 * starts as one never written: where Connect's consumer group says (which Connect resets too), or per
 * consumer.override.auto.offset.reset. A reset of the whole connector ({@link OffsetsChange#RESET_ALL}) resets every
 * partition with progress under the connector's transactional.id.prefix, not only those Connect's group knows; those
 * are found by reading the progress once the given partitions are claimed and fenced, and are claimed and fenced in
 * turn.
 */
public final class ProgressReset {

    private static final Logger log = LoggerFactory.getLogger(ProgressReset.class);

    private final TransactionalSinkConfig config;
    private final ClusterAdmins admins;
    private final OffsetsOwnership owner;
    private final SlotProducer producer;

    /** {@code owner} and {@code producer}: the ownership of {@code <prefix>:offsets#0} and the producer it inits. */
    public ProgressReset(TransactionalSinkConfig config, ClusterAdmins admins, OffsetsOwnership owner,
                         SlotProducer producer) {
        this.config = config;
        this.admins = admins;
        this.owner = owner;
        this.producer = producer;
    }

    /**
     * Writes the progress of each partition: its new next offset, or, for null, none (a tombstone); with
     * {@link OffsetsChange#RESET_ALL} also a tombstone for every other partition with progress under the prefix.
     *
     * @param sourceTopicIds the ids of the partitions' source topics as the source cluster shows them now
     */
    public void apply(Map<TopicPartition, Long> offsets, Map<String, Uuid> sourceTopicIds, OffsetsChange change) {
        if (offsets.isEmpty() && change == OffsetsChange.ALTER) {
            return;
        }
        ProgressTarget target = new ProgressTarget(config.progressTopic());
        String prefix = config.transactionalIdPrefix();
        try {
            Uuid topicId = admins.target().describeTopics(List.of(target.topic())).allTopicNames()
                    .get(config.progressReadTimeout().toMillis(), TimeUnit.MILLISECONDS).get(target.topic()).topicId();
            Map<TopicPartition, Long> changes = changes(offsets, change, target, topicId);
            if (changes.isEmpty()) {
                return;
            }
            Map<TopicPartition, Long> claims = owner.own(changes.keySet());
            Set<String> keys = changes.keySet().stream().map(source -> WriterFactory.transactionalId(prefix, source))
                    .collect(Collectors.toSet());
            Map<String, ProgressRecord> last = read(target, topicId, keys::contains, changes);
            List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            changes.forEach((source, next) -> {
                String key = WriterFactory.transactionalId(prefix, source);
                records.add(CommitCompletion.tombstone(target.topic(), key)); // the progress is no longer a commit's
                records.add(record(target, key, source, next, new Holder(OwnershipRecord.offsetsId(prefix),
                        claims.get(source)), Optional.ofNullable(last.get(key)), topicId,
                        Optional.ofNullable(sourceTopicIds.get(source.topic()))));
            });
            commit(records);
            changes.forEach((source, next) -> log.info("{} the progress of {} ({}) through Connect's offsets API as {}",
                    next == null ? "Reset" : "Set to " + next, source, WriterFactory.transactionalId(prefix, source),
                    OwnershipRecord.offsetsId(prefix)));
        } catch (KafkaException | ExecutionException | TimeoutException e) {
            throw new ConnectException("Could not change the progress of " + offsets.keySet() + " in the progress"
                    + " topic " + config.progressTopic() + " on the target cluster: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while changing the progress", e);
        }
    }

    /**
     * The partitions to change, each owned by the offsets id: those of {@code offsets}, and with
     * {@link OffsetsChange#RESET_ALL} every other partition with progress under the prefix, read once those of
     * {@code offsets} are owned (their holders fenced), reset too.
     */
    private Map<TopicPartition, Long> changes(Map<TopicPartition, Long> offsets, OffsetsChange change,
                                              ProgressTarget target, Uuid topicId) {
        Map<TopicPartition, Long> changes = new LinkedHashMap<>(offsets);
        owner.own(changes.keySet());
        if (change == OffsetsChange.RESET_ALL) {
            String prefix = config.transactionalIdPrefix();
            read(target, topicId, key -> WriterFactory.sourceOf(prefix, key).isPresent(), changes).keySet()
                    .forEach(key -> changes.putIfAbsent(WriterFactory.sourceOf(prefix, key).orElseThrow(), null));
        }
        return changes;
    }

    private Map<String, ProgressRecord> read(ProgressTarget target, Uuid topicId, Predicate<String> keys,
                                             Map<TopicPartition, Long> changes) {
        try (ProgressLog reader = new ProgressLog(admins.target(), config.adminConfigs(), target)) {
            return reader.read(keys, topicId, changes.keySet(), Instant.now().plus(config.progressReadTimeout()));
        }
    }

    /** The new progress of {@code source} under {@code key}, written by {@code holder}; a tombstone for a reset. */
    private static ProducerRecord<byte[], byte[]> record(ProgressTarget target, String key, TopicPartition source,
                                                         Long next, Holder holder, Optional<ProgressRecord> last,
                                                         Uuid topicId, Optional<Uuid> sourceTopicId) {
        return next == null
                ? new ProducerRecord<>(target.topic(), target.partition().partition(), ProgressLog.key(key), null)
                : new ProgressRecord(next, topicId, sourceTopicId,
                        last.map(ProgressRecord::targetPartitions).orElse(Map.of()))
                        .withOwnership(holder, Map.of())
                        .toRecord(target.partition(), key, source);
    }

    /** One transaction of the offsets id with every record of the change. */
    private void commit(List<ProducerRecord<byte[], byte[]>> records) {
        producer.begin();
        for (ProducerRecord<byte[], byte[]> record : records) {
            SlotProducer.Sent sent = producer.send(record, TxnSendOption.NONE);
            if (!(sent instanceof SlotProducer.Sent.Accepted)) {
                producer.abort();
                Throwable cause = SlotAnswers.cause(sent);
                throw new RetriableException("a record of the change was refused: " + cause, cause);
            }
        }
        SlotProducer.End end = producer.commit();
        if (!(end instanceof SlotProducer.End.Done)) {
            Throwable cause = SlotAnswers.cause(end);
            throw new RetriableException("the transaction of the change did not commit (" + cause + "): "
                    + (end instanceof SlotProducer.End.Fenced ? "another id fenced the offsets API's, a task of the"
                    + " connector still runs; " : "") + "send the request again", cause);
        }
    }
}
