package dev.quarantine.connect.sink.progress;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.cluster.ClusterAdmins;
import dev.quarantine.connect.sink.cluster.HangingTransactions;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.write.WriterFactory;

/**
 * Connect's offsets REST API (KIP-875) for this connector: its tasks resume from the progress records, not from
 * Connect's consumer group, so altering or resetting offsets has to change the progress records. Connect only allows
 * it while the connector is STOPPED, but a zombie task (a worker that lost contact) may still write: so each
 * partition's new progress is written as its owner writes it, by a producer of the partition's transactional id, opened
 * as a task opens it: the id's last transaction described first, then initTransactions (which fences any earlier
 * producer and completes its last transaction), then what that last transaction left open repaired (see
 * {@link HangingTransactions}: an abort's records left open on the partition's target topic, named by
 * target.topic.format, the DLQ and the progress topic are aborted; a commit left open on the progress partition is
 * completed), since the reset's own commit marker would otherwise commit them, or hold back every read of the progress.
 *
 * <p>An altered offset keeps the target partition counts of the last record, and carries the id the source topic
 * has now (as the source cluster shows it, passed in): the offset is the operator's, given for the topic as it is, so a
 * topic deleted and created again is resumed at it, not started over. A reset writes a tombstone, so the partition
 * starts as one never written: where Connect's consumer group says (which Connect resets too), or per
 * consumer.override.auto.offset.reset. A reset of the whole connector ({@link OffsetsChange#RESET_ALL}) resets every
 * partition with progress under the connector's transactional.id.prefix, not only those Connect's group knows; those
 * are found by reading the progress after the given partitions' producers are opened, so an open transaction of a
 * zombie of another partition holds that read back (it fails after progress.read.timeout.ms; send the request again).
 */
public final class ProgressReset {

    private static final Logger log = LoggerFactory.getLogger(ProgressReset.class);
    private static final Duration CLOSE = Duration.ofSeconds(5);

    private final TransactionalSinkConfig config;

    public ProgressReset(TransactionalSinkConfig config) {
        this.config = config;
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
        try (ClusterAdmins admins = new ClusterAdmins(config.adminConfigs(), config.adminConfigs());
             Owners owners = new Owners(admins)) {
            Uuid topicId = admins.target().describeTopics(List.of(target.topic())).allTopicNames()
                    .get(config.progressReadTimeout().toMillis(), TimeUnit.MILLISECONDS).get(target.topic()).topicId();
            Map<TopicPartition, Long> changes = new LinkedHashMap<>(offsets);
            owners.open(changes.keySet());
            if (change == OffsetsChange.RESET_ALL) {
                String prefix = config.transactionalIdPrefix();
                read(admins, target, topicId, id -> WriterFactory.sourceOf(prefix, id).isPresent(), changes)
                        .keySet().forEach(id -> changes.putIfAbsent(WriterFactory.sourceOf(prefix, id).orElseThrow(),
                                null));
                owners.open(changes.keySet());
            }
            Map<String, ProgressRecord> last = read(admins, target, topicId, owners.ids::containsKey, changes);
            owners.ids.forEach((id, source) -> write(owners.producers.get(id), target, id, source,
                    changes.get(source), Optional.ofNullable(last.get(id)), topicId,
                    Optional.ofNullable(sourceTopicIds.get(source.topic()))));
        } catch (KafkaException | ExecutionException | TimeoutException e) {
            throw new ConnectException("Could not change the progress of " + offsets.keySet() + " in the progress"
                    + " topic " + config.progressTopic() + " on the target cluster: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while changing the progress", e);
        }
    }

    private Map<String, ProgressRecord> read(ClusterAdmins admins, ProgressTarget target, Uuid topicId,
                                             Predicate<String> keys,
                                             Map<TopicPartition, Long> changes) {
        try (ProgressLog reader = new ProgressLog(admins.target(), config.adminConfigs(), target)) {
            return reader.read(keys, topicId, changes.keySet(), Instant.now().plus(config.progressReadTimeout()));
        }
    }

    private static void write(KafkaProducer<byte[], byte[]> producer, ProgressTarget target, String id,
                              TopicPartition source, Long next, Optional<ProgressRecord> last, Uuid topicId,
                              Optional<Uuid> sourceTopicId) {
        ProducerRecord<byte[], byte[]> record = next == null
                ? new ProducerRecord<>(target.topic(), target.partition().partition(), ProgressLog.key(id), null)
                : new ProgressRecord(next, topicId, sourceTopicId,
                        last.map(ProgressRecord::targetPartitions).orElse(Map.of()))
                        .toRecord(target.partition(), id, source);
        producer.beginTransaction();
        producer.send(CommitCompletion.tombstone(target.topic(), id)); // the progress is no longer a commit's
        producer.send(record);
        producer.commitTransaction();
        log.info("{} the progress of {} ({}) through Connect's offsets API", next == null ? "Reset" : "Set to " + next,
                source, id);
    }

    /** The producers of the partitions being changed, each opened as a task opens its partition's producer. */
    private final class Owners implements AutoCloseable {
        private final Map<String, TopicPartition> ids = new LinkedHashMap<>();
        private final Map<String, KafkaProducer<byte[], byte[]>> producers = new HashMap<>();
        private final HangingTransactions hanging;

        Owners(ClusterAdmins admins) {
            this.hanging = new HangingTransactions(admins, config.progressReadTimeout(), config.progressTopic());
        }

        /** Opens the producers of those of {@code sources} not open yet. */
        void open(Set<TopicPartition> sources) {
            Map<String, TopicPartition> opening = new LinkedHashMap<>();
            sources.forEach(source -> opening.put(WriterFactory.transactionalId(config.transactionalIdPrefix(),
                    source), source));
            opening.keySet().removeAll(ids.keySet());
            if (opening.isEmpty()) {
                return;
            }
            Set<String> aborted = hanging.lastTransactionsAborted(opening.keySet()); // before initTransactions
            List<String> opened = new ArrayList<>();
            opening.forEach((id, source) -> {
                KafkaProducer<byte[], byte[]> producer = producer(id);
                producers.put(id, producer);
                ids.put(id, source);
                producer.initTransactions(); // fences a zombie of the partition, completes its last transaction
                opened.add(id);
            });
            for (String id : opened) {
                if (aborted.contains(id)) {
                    hanging.abortBeforeWriting(id, topicsOf(ids.get(id)));
                } else if (hanging.lastCommitLeftOpen(id).isPresent()) {
                    log.warn("The committed last transaction of {} is still open on {} (a restarting broker skipped"
                            + " its marker); completing it before changing the progress", id, config.progressTopic());
                    KafkaProducer<byte[], byte[]> producer = producers.get(id);
                    producer.beginTransaction();
                    producer.send(CommitCompletion.tombstone(config.progressTopic(), id)); // the change clears it
                    producer.commitTransaction();
                }
                hanging.forget(id);
            }
        }

        /** The topics the partition's writer writes: its target topic (by target.topic.format), the DLQ, progress. */
        private Set<String> topicsOf(TopicPartition source) {
            Set<String> topics = new TreeSet<>(Set.of(config.progressTopic()));
            topics.add(config.topicFormat().targetTopic(source.topic()));
            config.dlqTopic().ifPresent(topics::add);
            return topics;
        }

        private KafkaProducer<byte[], byte[]> producer(String transactionalId) {
            return WriterFactory.shortLivedProducer(config, transactionalId, "-offsets");
        }

        @Override
        public void close() {
            producers.values().forEach(p -> p.close(CLOSE));
        }
    }
}
