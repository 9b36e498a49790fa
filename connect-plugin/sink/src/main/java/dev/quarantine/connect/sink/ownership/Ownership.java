package dev.quarantine.connect.sink.ownership;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;

import dev.quarantine.connect.sink.cluster.HangingTransactionCheck;
import dev.quarantine.connect.sink.ownership.OpeningStages.Step;
import dev.quarantine.txn.progress.CompactedTopicReader;

/**
 * The ownership of one slot's source partitions (design 2.3-2.5): {@link #open} makes no round trip (Connect fails
 * the task for good on an exception from it), and every {@link #advance} (from {@code put}) runs the next stages of
 * 2.4 while their bounds fit the put's budget. The partitions' states are kept by {@link SlotPartitions}; which stage
 * runs next, in what order of precedence, and how each runs through the seams, {@link OpeningStages} says (it
 * decides through {@link PartitionState} (rule O), {@link FenceSet} (rule F) and {@link UnexplainedFences}, and
 * commits claims with the slot's own producer, {@link ClaimStage}); this class keeps the failure policy.
 *
 * A stage that fails for now leaves every partition where it was, paused, and ends the put's stages; it is tried
 * again at the next put until {@code transient.errors.timeout.ms} passes without a stage succeeding.
 */
public final class Ownership {

    /** The order partitions are listed in (messages, sets handed out): by name. */
    static final Comparator<TopicPartition> BY_NAME = Comparator.comparing(TopicPartition::toString);

    /** The seams this slot talks to. */
    public record Seams(SlotProducer producer, Fencer fencer, OwnershipLog log) {
    }

    /** {@code transient.errors.timeout.ms}; the reclaim delay ({@code consumer.override.session.timeout.ms}). */
    public record Limits(Duration transientTimeout, Duration reclaimAfter) {
    }

    /** What an {@link #advance} did. */
    public sealed interface Opening {
        /**
         * Partitions that became OWNED (to seek to their progress and resume) and LOST (to drop and pause), and how
         * many partitions the slot claimed and transactional ids it fenced on the way (the task's metrics).
         */
        record Progressed(Set<TopicPartition> owned, Set<TopicPartition> lost, int claimed, int fenced)
                implements Opening {
            /** Nothing claimed or fenced. */
            public Progressed(Set<TopicPartition> owned, Set<TopicPartition> lost) {
                this(owned, lost, 0, 0);
            }
        }

        /** The task fails with {@code cause}, which names the partitions, the ids and the setting. */
        record Failed(ConnectException cause) implements Opening {
        }
    }

    private final StageFailures failures;
    private final SlotPartitions partitions;
    private final OpeningStages stages;
    private Optional<Throwable> lastFailure = Optional.empty();

    Ownership(String prefix, String progressTopic, String ownId, Seams seams, StageBudget budget, Limits limits,
              Clock clock) {
        this(prefix, progressTopic, ownId, seams, budget, limits, clock, (partition, bound) -> Set.of());
    }

    /**
     * What a read of a progress-topic partition held back for its whole bound tries before the stage is tried again:
     * completing what ids of the connector left open there ({@link LeftOpenCompletion}); answers the ids completed.
     */
    @FunctionalInterface
    public interface HeldBackRepair {
        Set<String> complete(int partition, Duration bound);
    }

    Ownership(String prefix, String progressTopic, String ownId, Seams seams, StageBudget budget, Limits limits,
              Clock clock, HeldBackRepair heldBack) {
        this.failures = new StageFailures(ownId, limits.transientTimeout(), clock);
        this.partitions = new SlotPartitions(prefix, limits.reclaimAfter(), clock);
        this.stages = new OpeningStages(prefix, progressTopic, ownId, seams, budget, heldBack, failures.unexplained(),
                partitions);
    }

    /**
     * The ownership of slot {@code ownId} over the real seams: fences through {@code admin}
     * ({@code Admin.fenceProducers}, an admin client of the target producer's principal) and reads the progress topic
     * through {@code reader}; the caller closes both.
     */
    public static Ownership of(String prefix, String progressTopic, String ownId, SlotProducer producer, Admin admin,
                               CompactedTopicReader reader, StageBudget budget, Limits limits, Clock clock,
                               LeftOpenCompletion leftOpen, HangingTransactionCheck hanging,
                               Supplier<Collection<String>> topicsWritten) {
        return new Ownership(prefix, progressTopic, ownId, new Seams(producer, new RepairingFencer(
                new AdminFencer(admin), hanging, topicsWritten), new CompactedOwnershipLog(reader, progressTopic,
                prefix, clock)), budget, limits, clock, leftOpen::complete);
    }

    /** Connect assigned {@code partitions}: NEW, no round trip (not paused: see the sink task handler's open). */
    public void open(Collection<TopicPartition> partitions) {
        this.partitions.open(partitions);
        stages.opened();
    }

    /** Connect took {@code partitions} away; only the memory of fences that returned outlives this. */
    public void close(Collection<TopicPartition> partitions) {
        this.partitions.close(partitions);
    }

    /** The slot's transaction was refused as fenced: the producer is initialised again at the next put (2.5). */
    public void fenced(boolean outlivedTransactionTimeout) {
        stages.fenced(outlivedTransactionTimeout);
    }

    /** The slot committed a transaction: unexplained fences start counting again from none. */
    public void committed() {
        failures.unexplained().committed();
    }

    /**
     * The slot's transaction ended with an unknown outcome (a commit whose answer was lost, an abort that failed): the
     * producer is initialised again at the next put and every partition read again (2.5), not counted as a fence.
     */
    public void reinitialise() {
        stages.reinitialise();
    }

    /** What the last {@link #advance} stopped on for now (a stage that failed transiently), if it did. */
    public Optional<Throwable> lastFailure() {
        return lastFailure;
    }

    /** The claim {@code partition} is OWNED under, for its progress records' {@code claim} (rule W). */
    public OptionalLong ownedUnder(TopicPartition partition) {
        return partitions.ownedUnder(partition);
    }

    /** Every partition opened in this slot and not closed, whatever its state. */
    public Set<TopicPartition> assigned() {
        return partitions.assigned();
    }

    /** The partitions opened and not OWNED nor LOST: being claimed, fenced or read. */
    public Set<TopicPartition> opening() {
        return partitions.waiting();
    }

    Optional<PartitionState> state(TopicPartition partition) {
        return partitions.state(partition);
    }

    /** Whether this slot writes {@code partition} now: {@link #owned()} holds it (asked per partition of a put). */
    public boolean owns(TopicPartition partition) {
        return stages.initialised() && partitions.writable(partition);
    }

    /** The partitions written by this slot: OWNED ones only (rule W). */
    public Set<TopicPartition> owned() {
        if (!stages.initialised()) {
            // fenced: nothing is written before the re-initialisation and its reads (2.5)
            return new TreeSet<>(BY_NAME);
        }
        return partitions.writable();
    }

    /**
     * How many of {@link #owned()} pass {@code also}, without listing them (asked at every put for the
     * {@code partitions-owned} gauge: no sorted copy of thousands of partitions there).
     */
    public long ownedCount(Predicate<TopicPartition> also) {
        if (!stages.initialised()) {
            return 0;
        }
        return partitions.writableCount(also);
    }

    /** Partitions found claimed by another id since this slot started ({@code partitions-lost-total}). */
    public long lostTotal() {
        return partitions.lostTotal();
    }

    /**
     * Whether {@link #advance} has a stage to run (an init, a read, a claim or a fence): the slot's producer may then
     * be used by it, so nothing of the slot's own may be open on it.
     */
    public boolean hasStagesToRun() {
        return stages.next().isPresent();
    }

    /** Runs the next stages that fit {@code put}'s budget. */
    public Opening advance(StageBudget.Put put) {
        partitions.startAdvance();
        stages.startAdvance();
        lastFailure = Optional.empty();
        for (Optional<Step> next = stages.next(); next.isPresent() && put.mayStart(next.get().bound);
             next = stages.next()) {
            Optional<Throwable> failure;
            try {
                failure = stages.run(next.get());
            } catch (ConnectException e) {
                return new Opening.Failed(e);
            }
            if (failure.isPresent()) {
                lastFailure = failure;
                Optional<ConnectException> failed = failures.failed(failure.get(), partitions.waiting());
                if (failed.isPresent()) {
                    return new Opening.Failed(failed.get());
                }
                break;
            }
            failures.succeeded();
        }
        Optional<ConnectException> unexplained = failures.unexplainedTooLong();
        if (unexplained.isPresent()) {
            return new Opening.Failed(unexplained.get());
        }
        return new Opening.Progressed(partitions.becameOwned(), partitions.becameLost(), stages.claimedNow(),
                stages.fencedNow());
    }
}
