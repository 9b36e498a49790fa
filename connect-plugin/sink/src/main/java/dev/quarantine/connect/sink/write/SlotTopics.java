package dev.quarantine.connect.sink.write;

import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

import org.apache.kafka.common.TopicPartition;

/**
 * The topics a slot writing some source partitions writes, where what its transactions left hanging is looked for and
 * repaired: the target topic of each partition, the dead-letter topic when there is one, and the progress topic. The
 * task's slots ({@link WriterFactory}) and the offsets API's id ({@code OffsetsSlot}) each name theirs.
 */
public final class SlotTopics {

    private final UnaryOperator<String> targetTopic;
    private final Optional<String> deadLetterTopic;
    private final String progressTopic;

    /** {@code targetTopic}: the target topic of a source topic ({@code target.topic.format}). */
    public SlotTopics(UnaryOperator<String> targetTopic, Optional<String> deadLetterTopic, String progressTopic) {
        this.targetTopic = targetTopic;
        this.deadLetterTopic = deadLetterTopic;
        this.progressTopic = progressTopic;
    }

    /** The target topics of {@code sources} and the dead-letter topic, sorted (without the progress topic). */
    Set<String> targetsAndDeadLetters(Collection<TopicPartition> sources) {
        Set<String> topics = new TreeSet<>();
        sources.forEach(source -> topics.add(targetTopic.apply(source.topic())));
        deadLetterTopic.ifPresent(topics::add);
        return topics;
    }

    /** The target topics of {@code sources}, the dead-letter and the progress topic, sorted. */
    public Set<String> withProgress(Collection<TopicPartition> sources) {
        Set<String> topics = targetsAndDeadLetters(sources);
        topics.add(progressTopic);
        return topics;
    }
}
