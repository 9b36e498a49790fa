package dev.quarantine.connect.sink.write;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.apache.kafka.common.TopicPartition;

/**
 * The transactions a slot writes after the broker rejected a record the up-front checks passed
 * ({@link TaskTransaction.Outcome.Rejected}), across every partition of the slot (docs/design/sink-ownership.md 2.6).
 * An aborted transaction does not say for sure which record was at fault (records of its produce batch fail with it),
 * so the rejected record is isolated:
 *
 * <table>
 * <caption>After the transaction at the head of the plan is rejected at {@code p@o}</caption>
 * <tr><th>the head held</th><th>it is replaced by, in order</th></tr>
 * <tr><td>more than {@code p@o}</td><td>every other partition's records and {@code p}'s records before {@code o};
 *     {@code p@o} alone; {@code p}'s records after {@code o}</td></tr>
 * <tr><td>{@code p@o} alone</td><td>{@code p@o} as its dead letter: it is poison</td></tr>
 * <tr><td>{@code p@o} as its dead letter</td><td>nothing: a refused dead letter is fatal
 *     ({@link TaskTransaction} answers Fatal), never Rejected</td></tr>
 * </table>
 *
 * A transaction before {@code o} that is rejected again is split the same way. A plan is offsets only; the caller
 * slices its waiting records by it. One plan per rejection: a commit trigger with no rejection writes one transaction.
 */
final class IsolationPlan {

    /** One transaction: per source partition the source offsets {@code [from, to)}, and the records to dead-letter. */
    record Step(Map<TopicPartition, Range> ranges, Set<Position> poison) {
        Step {
            ranges = Collections.unmodifiableMap(new LinkedHashMap<>(ranges));
            poison = Set.copyOf(poison);
        }
    }

    /** Source offsets {@code [from, to)}. */
    record Range(long from, long to) {
        boolean holds(long offset) {
            return from <= offset && offset < to;
        }
    }

    /** A source record. */
    record Position(TopicPartition source, long offset) {
    }

    private final Deque<Step> steps = new ArrayDeque<>();
    private final Set<Position> poison;

    /** A plan of one transaction writing {@code ranges}; {@code poison}: records known as poison before. */
    IsolationPlan(Map<TopicPartition, Range> ranges, Set<Position> poison) {
        this.poison = new TreeSet<>(Comparator.comparing((Position p) -> p.source().toString())
                .thenComparingLong(Position::offset));
        this.poison.addAll(poison);
        add(steps, ranges);
    }

    /** The transaction to write next; empty once every step committed. */
    Optional<Step> next() {
        return Optional.ofNullable(steps.peekFirst());
    }

    /** The transaction of {@link #next()} committed. */
    void committed() {
        steps.removeFirst();
    }

    /** The transaction of {@link #next()} was rejected at {@code source@offset}: it is split as the table says. */
    void rejected(TopicPartition source, long offset) {
        Step head = steps.removeFirst();
        Range range = head.ranges().get(source);
        Position position = new Position(source, offset);
        if (range == null || !range.holds(offset) || poison.contains(position)) {
            throw new IllegalArgumentException(position + " is not a record " + head + " writes as itself");
        }
        Deque<Step> split = new ArrayDeque<>();
        if (head.ranges().size() == 1 && range.to() - range.from() == 1) {
            poison.add(position);
            add(split, head.ranges());
        } else {
            Map<TopicPartition, Range> before = new LinkedHashMap<>(head.ranges());
            before.put(source, new Range(range.from(), offset));
            add(split, before);
            add(split, Map.of(source, new Range(offset, offset + 1)));
            add(split, Map.of(source, new Range(offset + 1, range.to())));
        }
        while (!split.isEmpty()) {
            steps.addFirst(split.removeLast());
        }
    }

    private void add(Deque<Step> to, Map<TopicPartition, Range> ranges) {
        Map<TopicPartition, Range> held = new LinkedHashMap<>();
        ranges.forEach((source, range) -> {
            if (range.to() > range.from()) {
                held.put(source, range);
            }
        });
        if (!held.isEmpty()) {
            to.addLast(new Step(held, poison.stream().filter(p -> held.containsKey(p.source())
                    && held.get(p.source()).holds(p.offset())).collect(Collectors.toSet())));
        }
    }
}
