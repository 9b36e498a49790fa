package dev.quarantine.replay;

import java.util.Optional;

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
 * <tr><td>original</td><td>no target (Kafka Connect's own dead-letter queue)</td><td>input topic
 *     ({@code __connect.errors.topic} / {@code __streams.errors.topic}) and partition</td>
 *     <td>the dead letter's</td></tr>
 * <tr><td>source</td><td>any</td><td>input topic and partition</td><td>Streams' raw input key and value
 *     ({@code __quarantine.source.raw.*}) when present, else the dead letter's</td></tr>
 * <tr><td>a topic</td><td>any</td><td>that topic, the partitioner's choice</td><td>the dead letter's</td></tr>
 * <tr><td>any</td><td>the topic above is unknown (headers missing)</td><td colspan="2">none: unroutable</td></tr>
 * </table>
 */
final class DestinationResolver {

    /** Where a replayed record goes; {@code partition} null lets the producer's partitioner choose. */
    record Target(String topic, Integer partition, byte[] key, byte[] value) {
    }

    private static final String PAYLOAD_FROM_INPUT = "input";

    private final Destination destination;

    DestinationResolver(Destination destination) {
        this.destination = destination;
    }

    /** The target of {@code letter}; empty when its headers do not say where it belongs. */
    Optional<Target> resolve(DeadLetterView letter) {
        byte[] key = letter.record().key();
        byte[] value = letter.record().value();
        return switch (destination.kind()) {
            case TOPIC -> Optional.of(new Target(destination.topic().orElseThrow(), null, key, value));
            case SOURCE -> letter.sourceTopic().map(topic -> new Target(topic, letter.sourcePartition().orElse(null),
                    letter.sourceRawKey().orElse(key), letter.sourceRawValue().orElse(value)));
            case ORIGINAL -> original(letter).map(place -> new Target(place.topic(), place.partition(), key, value));
        };
    }

    /** The topic the dead letter was going to when it failed (see the table), whatever the destination. */
    static Optional<String> originalTopic(DeadLetterView letter) {
        return original(letter).map(Target::topic);
    }

    private static Optional<Target> original(DeadLetterView letter) {
        boolean inputBytes = letter.payloadOrigin().map(PAYLOAD_FROM_INPUT::equals).orElse(false);
        if (!inputBytes && letter.targetTopic().isPresent()) {
            return Optional.of(new Target(letter.targetTopic().get(), letter.targetPartition().orElse(null), null,
                    null));
        }
        return letter.sourceTopic().map(topic -> new Target(topic, letter.sourcePartition().orElse(null), null, null));
    }
}
