package dev.quarantine.connect.sink.progress;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.connect.errors.ConnectException;

import dev.quarantine.connect.sink.cluster.TargetTopics;

/**
 * Where a task's writers put their progress: partition 0 of the progress topic, as the task first found it. The
 * topic's id is learnt when the task first reads progress (before anything is written); a topic found later with
 * another id was deleted and created again (by an operator, or by a broker with auto.create.topics.enable=true at a
 * writer's send), and with it the progress of every partition that has not written since: the task stops rather
 * than resume those partitions from Connect's older offsets.
 *
 * <p>It also keeps, per source partition, what its progress records carry besides the offset (see
 * {@link ProgressRecord}): the source topic's id as found when the partition was opened, and the partition counts its
 * records are mapped into target topics by, as restored from its progress or taken on first use.
 */
public final class ProgressTarget {

    private final TopicPartition partition;
    private volatile Uuid topicId;
    private volatile String replacedBy;
    private final Map<TopicPartition, SourceFacts> facts = new ConcurrentHashMap<>();

    /**
     * A source partition's facts: its topic's id, the target partition counts its records are mapped by, and the redo
     * it is in, if any.
     */
    private record SourceFacts(Optional<Uuid> sourceTopicId, Map<String, Integer> targetPartitions,
                               Optional<RedoRange> redo) {
    }

    ProgressTarget(String topic) {
        this.partition = new TopicPartition(topic, 0);
    }

    /** For tests: a target whose topic id is already known. */
    public static ProgressTarget known(String topic, Uuid topicId) {
        ProgressTarget target = new ProgressTarget(topic);
        target.topicId = topicId;
        return target;
    }

    public TopicPartition partition() {
        return partition;
    }

    public String topic() {
        return partition.topic();
    }

    /**
     * Records the progress topic's id as described now: the first answer is kept.
     *
     * @throws ConnectException when the topic now has another id than the one first found
     */
    synchronized void learn(Uuid described, Iterable<TopicPartition> sources) {
        if (topicId == null) {
            topicId = described;
        } else if (!topicId.equals(described)) {
            throw recreated(sources, "it had topic id " + topicId + " when this task started, and now " + described);
        }
    }

    /**
     * Whether the topic, as described now, has another id than the one first learnt; remembered, so that every
     * writer's next progress record fails (see {@link #record}). A topic not learnt yet is left alone.
     */
    boolean replacedBy(Uuid described) {
        Uuid known = topicId;
        if (known != null && !known.equals(described)) {
            replacedBy = "it had topic id " + known + " when this task started, and now " + described;
        }
        return replacedBy != null;
    }

    /**
     * The record of {@code source}'s progress for its writer's transaction, which covered source offsets [{@code from},
     * {@code next}); it carries the partition's redo while {@code next} has not passed its end.
     *
     * @throws ConnectException when the topic was found replaced: the transaction must not commit into it
     */
    public ProducerRecord<byte[], byte[]> record(String transactionalId, TopicPartition source, long from, long next) {
        SourceFacts sourceFacts = facts.getOrDefault(source, new SourceFacts(Optional.empty(), Map.of(),
                Optional.empty()));
        return record(transactionalId, source, from, next, sourceFacts.redo().filter(r -> r.pendingAt(next)));
    }

    /**
     * The intent to redo, as {@code source}'s progress: the position moved back to {@code at}, where {@code redo}
     * starts; from then on {@code source}'s transactions are in {@code redo}.
     */
    public ProducerRecord<byte[], byte[]> intent(String transactionalId, TopicPartition source, long at,
            RedoRange redo) {
        ProducerRecord<byte[], byte[]> intent = record(transactionalId, source, at, at, Optional.of(redo));
        facts.compute(source, (s, known) -> known == null ? new SourceFacts(Optional.empty(),
                new ConcurrentHashMap<>(), Optional.of(redo))
                : new SourceFacts(known.sourceTopicId(), known.targetPartitions(), Optional.of(redo)));
        return intent;
    }

    /**
     * The progress {@code source} starts from at {@code next} when it has none (or its source topic started over):
     * nothing covered, with what its progress records carry ({@link #restore}).
     *
     * @throws IllegalStateException when the progress topic's id was not learnt by a read yet
     */
    public ProgressRecord start(TopicPartition source, long next) {
        Uuid known = topicId;
        if (known == null) {
            throw new IllegalStateException("The progress of " + source + " starts before the topic was read");
        }
        return new ProgressRecord(next, known, sourceTopicId(source), Map.copyOf(mappedPartitions(source)));
    }

    /**
     * Before a transaction of {@code sources}' progress: fails when the topic was found replaced under the running
     * task ({@link #replacedBy}), so nothing commits into the new topic.
     *
     * @throws ConnectException naming the topic and {@code sources}
     */
    public void requireNotReplaced(Iterable<TopicPartition> sources) {
        if (replacedBy != null) {
            throw recreated(sources, replacedBy);
        }
    }

    private ProducerRecord<byte[], byte[]> record(String transactionalId, TopicPartition source, long from, long next,
                                                  Optional<RedoRange> redo) {
        Uuid known = topicId;
        if (known == null) {
            throw new IllegalStateException("The progress of " + source + " is written before it was read");
        }
        if (replacedBy != null) {
            throw recreated(List.of(source), replacedBy);
        }
        SourceFacts sourceFacts = facts.getOrDefault(source, new SourceFacts(Optional.empty(), Map.of(),
                Optional.empty()));
        return new ProgressRecord(from, next, known, sourceFacts.sourceTopicId(), sourceFacts.targetPartitions(), redo)
                .toRecord(partition, transactionalId, source);
    }

    /**
     * What {@code source}'s progress records carry from now on besides the offset: its topic's id as found when it
     * was opened, and the target partition counts and redo restored from its progress (none for a partition without).
     */
    public void restore(TopicPartition source, Optional<Uuid> sourceTopicId, Map<String, Integer> targetPartitions,
                 Optional<RedoRange> redo) {
        facts.put(source, new SourceFacts(sourceTopicId, new ConcurrentHashMap<>(targetPartitions), redo));
    }

    /** The id {@code source}'s topic had when the partition was opened (or last started over), if known. */
    Optional<Uuid> sourceTopicId(TopicPartition source) {
        SourceFacts known = facts.get(source);
        return known == null ? Optional.empty() : known.sourceTopicId();
    }

    /**
     * The partition count of each target topic {@code source}'s records are mapped by (see
     * {@link TargetTopics#partition}); a topic not in it yet takes its count on first use, and keeps it.
     */
    public Map<String, Integer> mappedPartitions(TopicPartition source) {
        return facts.computeIfAbsent(source, s -> new SourceFacts(Optional.empty(), new ConcurrentHashMap<>(),
                Optional.empty())).targetPartitions();
    }

    /** The progress topic was replaced under running writers. */
    ConnectException recreated(Iterable<TopicPartition> sources, String evidence) {
        return new ConnectException("The progress topic " + topic() + " was deleted and created again on the target"
                + " cluster (" + evidence + "), and the progress of " + sources + " may be lost with it. The task stops"
                + " rather than guess where to resume. To go on, delete " + topic() + ", restart the connector (it"
                + " creates the topic again, compacted) and the task: its partitions resume from Connect's own"
                + " committed offsets, which can repeat records written since Connect's last offset commit");
    }
}
