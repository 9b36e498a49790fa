package dev.quarantine.connect.sink.ownership;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Predicate;

import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.ownership.PartitionState.Lost;
import dev.quarantine.connect.sink.progress.OwnershipRecord;

/**
 * The states of one slot's source partitions (design 2.3), and the bookkeeping of their changes: which partitions
 * became OWNED or LOST since the start of an {@link Ownership#advance}, how many were lost since the slot started, when
 * a partition LOST to another task may be claimed again, and the claim each partition Connect took away was held under
 * (a later claim there explains a fence of the slot). Every change of state a stage makes goes through
 * {@link #transition}, which keeps that bookkeeping; opening, closing and taking back a LOST partition set the state
 * directly. What the next state is, {@link PartitionState} decides.
 */
final class SlotPartitions {

    /** Logged under {@link Ownership}'s name, where the loss of a partition has always been logged. */
    private static final Logger LOG = LoggerFactory.getLogger(Ownership.class);

    /** The offsets API's id ({@code <prefix>:offsets#0}): a partition lost to it is not claimed back. */
    private final String offsetsId;
    private final Duration reclaimAfter;
    private final Clock clock;
    private final Map<TopicPartition, PartitionState> states = new HashMap<>();
    private final Map<TopicPartition, Instant> lostAt = new HashMap<>();
    /** Partitions Connect took away, with the own claim they were held under: a later claim there explains a fence. */
    private final Map<TopicPartition, Long> released = new HashMap<>();
    private final Set<TopicPartition> becameOwned = new HashSet<>();
    private final Set<TopicPartition> becameLost = new HashSet<>();
    private long lostTotal;

    /** {@code reclaimAfter}: how long after a partition was LOST to another task it is claimed again. */
    SlotPartitions(String prefix, Duration reclaimAfter, Clock clock) {
        this.offsetsId = OwnershipRecord.offsetsId(prefix);
        this.reclaimAfter = reclaimAfter;
        this.clock = clock;
    }

    /** Connect assigned {@code partitions}: NEW. */
    void open(Collection<TopicPartition> partitions) {
        partitions.forEach(partition -> {
            states.put(partition, PartitionState.opened());
            released.remove(partition);
        });
    }

    /** Connect took {@code partitions} away: the claim each was held under is kept ({@link #released}). */
    void close(Collection<TopicPartition> partitions) {
        partitions.forEach(partition -> {
            claimOf(states.remove(partition)).ifPresent(claim -> released.put(partition, claim));
            lostAt.remove(partition);
        });
    }

    /** An advance starts: nothing became OWNED or LOST yet, and partitions LOST past the reclaim delay are NEW. */
    void startAdvance() {
        becameOwned.clear();
        becameLost.clear();
        Instant now = clock.instant();
        lostAt.entrySet().removeIf(entry -> {
            boolean due = !entry.getValue().plus(reclaimAfter).isAfter(now);
            if (due) {
                states.computeIfPresent(entry.getKey(), (p, state) -> PartitionState.opened());
            }
            return due;
        });
    }

    /** Moves every partition to {@code next} of it, noting those that became OWNED or LOST. */
    void transition(BiFunction<TopicPartition, PartitionState, PartitionState> next) {
        states.replaceAll((partition, state) -> noteLost(partition, state, next.apply(partition, state)));
    }

    private PartitionState noteLost(TopicPartition partition, PartitionState before, PartitionState after) {
        if (after instanceof Lost lost && !(before instanceof Lost)) {
            lostTotal++;
            if (!lost.claimant().equals(offsetsId)) {
                // lost to Connect's offsets API (the connector was STOPPED: this is a zombie): never claimed back
                lostAt.put(partition, clock.instant());
            }
            becameLost.add(partition);
            becameOwned.remove(partition);
            LOG.warn("{} was claimed by {} (claim {}) after this task's claim {}; paused until Connect revokes it",
                    partition, lost.claimant(), lost.claim(), claimOf(before).map(String::valueOf).orElse("none"));
        } else if (after.writable() && !before.writable()) {
            becameOwned.add(partition);
        }
        return after;
    }

    /** The partitions that became OWNED since the advance started, and are still. */
    Set<TopicPartition> becameOwned() {
        return sorted(becameOwned);
    }

    /** The partitions that became LOST since the advance started. */
    Set<TopicPartition> becameLost() {
        return sorted(becameLost);
    }

    /** Partitions found claimed by another id since the slot started. */
    long lostTotal() {
        return lostTotal;
    }

    /** The partitions Connect took away, with the own claim each was held under. */
    Map<TopicPartition, Long> released() {
        return Collections.unmodifiableMap(released);
    }

    Optional<PartitionState> state(TopicPartition partition) {
        return Optional.ofNullable(states.get(partition));
    }

    /** The claim {@code partition} is OWNED under. */
    OptionalLong ownedUnder(TopicPartition partition) {
        PartitionState state = states.get(partition);
        return state instanceof PartitionState.Owned owned ? OptionalLong.of(owned.claim()) : OptionalLong.empty();
    }

    /** Every partition opened and not closed, whatever its state. */
    Set<TopicPartition> assigned() {
        return sorted(states.keySet());
    }

    /** Whether {@code partition} is in a state whose records are written (OWNED). */
    boolean writable(TopicPartition partition) {
        PartitionState state = states.get(partition);
        return state != null && state.writable();
    }

    /** The partitions in a state whose records are written (OWNED). */
    Set<TopicPartition> writable() {
        Set<TopicPartition> writable = new TreeSet<>(Ownership.BY_NAME);
        states.forEach((partition, state) -> {
            if (state.writable()) {
                writable.add(partition);
            }
        });
        return writable;
    }

    /** How many of {@link #writable()} pass {@code also}, without listing them. */
    long writableCount(Predicate<TopicPartition> also) {
        return states.entrySet().stream().filter(e -> e.getValue().writable() && also.test(e.getKey())).count();
    }

    /** The partitions neither OWNED nor LOST: being claimed, fenced or read. */
    Set<TopicPartition> waiting() {
        Set<TopicPartition> waiting = new TreeSet<>(Ownership.BY_NAME);
        states.forEach((partition, state) -> {
            if (!state.writable() && !(state instanceof Lost)) {
                waiting.add(partition);
            }
        });
        return waiting;
    }

    boolean anyIn(Class<? extends PartitionState> kind) {
        return states.values().stream().anyMatch(kind::isInstance);
    }

    Set<TopicPartition> in(Class<? extends PartitionState> kind) {
        Set<TopicPartition> in = new TreeSet<>(Ownership.BY_NAME);
        states.forEach((partition, state) -> {
            if (kind.isInstance(state)) {
                in.add(partition);
            }
        });
        return in;
    }

    /** The CLAIMED partitions, with their claims. */
    Map<TopicPartition, Long> claimed() {
        Map<TopicPartition, Long> claimed = new HashMap<>();
        states.forEach((partition, state) -> {
            if (state instanceof PartitionState.Claimed c) {
                claimed.put(partition, c.claim());
            }
        });
        return claimed;
    }

    private static Optional<Long> claimOf(PartitionState state) {
        if (state == null) {
            return Optional.empty();
        } else if (state instanceof PartitionState.Claimed c) {
            return Optional.of(c.claim());
        } else if (state instanceof PartitionState.Fenced f) {
            return Optional.of(f.claim());
        } else if (state instanceof PartitionState.Owned o) {
            return Optional.of(o.claim());
        }
        return Optional.empty();
    }

    private static Set<TopicPartition> sorted(Set<TopicPartition> partitions) {
        Set<TopicPartition> sorted = new TreeSet<>(Ownership.BY_NAME);
        sorted.addAll(partitions);
        return sorted;
    }
}
