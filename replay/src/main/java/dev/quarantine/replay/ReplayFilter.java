package dev.quarantine.replay;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which dead letters a replay selects. Every filter that is set must match (an empty one matches everything), except
 * the two offset filters, which together select positions: a dead letter in any range or at any listed offset.
 *
 * <table>
 * <caption>Filters</caption>
 * <tr><th>filter</th><th>matches a dead letter when</th></tr>
 * <tr><td>error classes</td><td>its exception class (fully qualified or simple name) is listed</td></tr>
 * <tr><td>original topics</td><td>the topic of its {@code original} destination is listed</td></tr>
 * <tr><td>applications or connectors</td><td>its {@code __connect.errors.connector.name},
 *     {@code __quarantine.application.id}, or group (Spring Kafka's consumer group, a share group) is listed</td></tr>
 * <tr><td>time from, to</td><td>the failed record's timestamp, the one a replay writes
 *     ({@link DeadLetterView#originalTimestamp()}: Spring Kafka's original-timestamp header up to
 *     {@link dev.quarantine.replay.letters.DeadLetterReader#MAX_ORIGINAL_TIMESTAMP}, else the dead letter's own, which
 *     Kafka Connect's, Kafka Streams' and our dead letters keep) is at or after from, before to</td></tr>
 * <tr><td>offset ranges, offsets</td><td>its partition and offset are in a range or listed</td></tr>
 * </table>
 */
final class ReplayFilter {

    private final Set<String> errorClasses;
    private final Set<String> originalTopics;
    private final Set<String> appsOrConnectors;
    private final Optional<Instant> from;
    private final Optional<Instant> to;
    private final List<Positions.Range> ranges;
    private final Set<Positions.Position> offsets;

    ReplayFilter(Set<String> errorClasses, Set<String> originalTopics, Set<String> appsOrConnectors,
                 Optional<Instant> from, Optional<Instant> to, List<Positions.Range> ranges,
                 Set<Positions.Position> offsets) {
        this.errorClasses = Set.copyOf(errorClasses);
        this.originalTopics = Set.copyOf(originalTopics);
        this.appsOrConnectors = Set.copyOf(appsOrConnectors);
        this.from = from;
        this.to = to;
        this.ranges = List.copyOf(ranges);
        this.offsets = Set.copyOf(offsets);
    }

    /** A filter that selects every dead letter. */
    static ReplayFilter all() {
        return new ReplayFilter(Set.of(), Set.of(), Set.of(), Optional.empty(), Optional.empty(), List.of(), Set.of());
    }

    boolean matches(DeadLetterView letter) {
        return errorClassMatches(letter) && listed(originalTopics, DestinationResolver.originalTopic(letter))
                && appOrConnectorMatches(letter) && timeMatches(letter.originalTimestamp())
                && positionMatches(letter.record().partition(), letter.record().offset());
    }

    private boolean errorClassMatches(DeadLetterView letter) {
        return errorClasses.isEmpty() || letter.errorClass()
                .map(name -> errorClasses.contains(name) || errorClasses.contains(simpleName(name))).orElse(false);
    }

    private boolean appOrConnectorMatches(DeadLetterView letter) {
        return appsOrConnectors.isEmpty() || listed(appsOrConnectors, letter.connectorName())
                || listed(appsOrConnectors, letter.applicationId()) || listed(appsOrConnectors, letter.group());
    }

    private boolean timeMatches(long timestamp) {
        Instant at = Instant.ofEpochMilli(timestamp);
        return from.map(start -> !at.isBefore(start)).orElse(true) && to.map(at::isBefore).orElse(true);
    }

    private boolean positionMatches(int partition, long offset) {
        if (ranges.isEmpty() && offsets.isEmpty()) {
            return true;
        }
        return offsets.contains(new Positions.Position(partition, offset))
                || ranges.stream().anyMatch(range -> range.contains(partition, offset));
    }

    private static boolean listed(Set<String> allowed, Optional<String> value) {
        return allowed.isEmpty() || value.map(allowed::contains).orElse(false);
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
