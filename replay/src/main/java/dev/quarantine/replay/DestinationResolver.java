package dev.quarantine.replay;

import java.util.Optional;

import dev.quarantine.replay.letters.DeadLetterFormat;
import dev.quarantine.replay.letters.HeaderValue;

/**
 * Where one dead letter goes back to, and with which key and value. The table it implements:
 *
 * <table>
 * <caption>Destination of a dead letter</caption>
 * <tr><th>destination</th><th>dead letter</th><th>topic, partition</th><th>key and value</th></tr>
 * <tr><td>original</td><td>Streams, payload origin {@code input} (the output could not be serialized: the dead
 *     letter holds the input's bytes)</td><td>input topic and partition</td><td>the dead letter's</td></tr>
 * <tr><td>original</td><td>{@code __quarantine.target.topic} present</td><td>that topic and
 *     {@code __quarantine.target.partition} (or the partitioner's choice)</td><td>the dead letter's</td></tr>
 * <tr><td>original</td><td>no target (Kafka Connect's or Kafka Streams' own dead-letter queue, Spring Kafka, share
 *     groups)</td><td>input topic and partition as {@link dev.quarantine.replay.letters.DeadLetterReader} reads them
 *     ({@code __connect.errors.topic}, {@code __streams.errors.topic}, {@code kafka_dlt-original-topic},
 *     {@code __dlq.errors.topic} and their partitions)</td><td>the dead letter's</td></tr>
 * <tr><td>source</td><td>any</td><td>input topic and partition</td><td>Streams' raw input key and value
 *     ({@code __quarantine.source.raw.*}) when present, else the dead letter's</td></tr>
 * <tr><td>a topic</td><td>any</td><td>that topic, the partitioner's choice</td><td>the dead letter's</td></tr>
 * <tr><td>original, source</td><td>format unknown ({@link DeadLetterFormat#UNKNOWN}): no header says where it came
 *     from</td><td colspan="2">none: unroutable, never a guessed destination</td></tr>
 * <tr><td>any</td><td>the topic above is unknown (headers missing), or a header it is taken from (topic or
 *     partition) is present but illegal ({@link HeaderValue})</td><td colspan="2">none: unroutable</td></tr>
 * </table>
 */
final class DestinationResolver {

    /** Where a replayed record goes; {@code partition} null lets the producer's partitioner choose. */
    record Target(String topic, Integer partition, byte[] key, byte[] value) {
    }

    /** A target, or why the dead letter has none (never a header's value). */
    record Resolution(Optional<Target> target, String unroutable) {
        static Resolution to(Target target) {
            return new Resolution(Optional.of(target), null);
        }

        static Resolution unroutable(String why) {
            return new Resolution(Optional.empty(), why);
        }
    }

    private static final String PAYLOAD_FROM_INPUT = "input";
    private static final String FORMAT_UNKNOWN = "format unknown: no Kafka Connect, Kafka Streams, share-group, Spring"
            + " Kafka or __quarantine.target.topic header says where it came from";

    private final Destination destination;

    DestinationResolver(Destination destination) {
        this.destination = destination;
    }

    /** The target of {@code letter}, or why it has none. */
    Resolution resolve(DeadLetterView letter) {
        byte[] key = letter.record().key();
        byte[] value = letter.record().value();
        return switch (destination.kind()) {
            case TOPIC -> Resolution.to(new Target(destination.topic().orElseThrow(), null, key, value));
            case SOURCE -> place(letter.sourceTopic(), letter.sourcePartition(), missingInput(letter),
                    letter.sourceRawKey().orElse(key), letter.sourceRawValue().orElse(value));
            case ORIGINAL -> original(letter, key, value);
        };
    }

    /** The topic the dead letter was going to when it failed (see the table), whatever the destination. */
    static Optional<String> originalTopic(DeadLetterView letter) {
        return original(letter, null, null).target().map(Target::topic);
    }

    private static Resolution original(DeadLetterView letter, byte[] key, byte[] value) {
        boolean inputBytes = letter.payloadOrigin().map(PAYLOAD_FROM_INPUT::equals).orElse(false);
        HeaderValue<String> target = letter.targetTopic();
        if (!inputBytes && (target.value().isPresent() || target.illegal())) {
            return place(target, letter.targetPartition(), null, key, value);
        }
        return place(letter.sourceTopic(), letter.sourcePartition(), missingInput(letter), key, value);
    }

    private static String missingInput(DeadLetterView letter) {
        return switch (letter.format()) {
            case UNKNOWN, QUARANTINE -> FORMAT_UNKNOWN;
            default -> "no input topic header (" + letter.format().label() + " format)";
        };
    }

    private static Resolution place(HeaderValue<String> topic, HeaderValue<Integer> partition, String missing,
                                    byte[] key, byte[] value) {
        if (topic.illegal()) {
            return Resolution.unroutable(topic.problem().orElseThrow());
        }
        if (topic.value().isEmpty()) {
            return Resolution.unroutable(missing);
        }
        if (partition.illegal()) {
            return Resolution.unroutable(partition.problem().orElseThrow());
        }
        return Resolution.to(new Target(topic.value().get(), partition.value().orElse(null), key, value));
    }
}
