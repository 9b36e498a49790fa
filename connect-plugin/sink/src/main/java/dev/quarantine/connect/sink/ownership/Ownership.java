package dev.quarantine.connect.sink.ownership;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.cluster.HangingTransactionCheck;
import dev.quarantine.connect.sink.ownership.OwnershipLog.At;
import dev.quarantine.connect.sink.ownership.OwnershipLog.LogRead;
import dev.quarantine.connect.sink.ownership.OwnershipLog.ProgressMark;
import dev.quarantine.connect.sink.ownership.PartitionState.Lost;
import dev.quarantine.connect.sink.ownership.StageBudget.Stage;
import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.txn.progress.CompactedTopicReader;

/**
 * The ownership of one slot's source partitions (design 2.3-2.5): {@link #open} makes no round trip (Connect fails
 * the task for good on an exception from it), and every {@link #advance} (from {@code put}) runs the next stages of
 * 2.4 while their bounds fit the put's budget. It talks to the seams only and decides through {@link PartitionState}
 * (rule O), {@link FenceSet} (rule F) and {@link UnexplainedFences}; the claims it runs are committed with the slot's
 * own producer ({@link ClaimStage}).
 *
 * <table>
 * <caption>The next stage, in this order of precedence</caption>
 * <tr><th>when</th><th>stage</th></tr>
 * <tr><td>the producer was fenced, or never initialised</td><td>{@code initTransactions} (2.5), then every
 * partition is read again</td></tr>
 * <tr><td>partition 0 was never read</td><td>a read of partition 0, so that rule F starts from the progress</td></tr>
 * <tr><td>a partition was opened or claimed, or the producer initialised, since the last read of partition 1</td>
 * <td>a read of partition 1 (2.4 steps 1 and 3)</td></tr>
 * <tr><td>a partition is NEW after that read</td><td>the claim (step 2)</td></tr>
 * <tr><td>a partition is CLAIMED</td><td>the fence of the union of F(o) (step 5)</td></tr>
 * <tr><td>a partition is FENCED</td><td>a read of partition 0: OWNED, or LOST (step 6)</td></tr>
 * </table>
 *
 * A stage that fails for now leaves every partition where it was, paused, and ends the put's stages; it is tried
 * again at the next put until {@code transient.errors.timeout.ms} passes without a stage succeeding.
 */
public final class Ownership {

    private static final Logger LOG = LoggerFactory.getLogger(Ownership.class);
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

    private final String ownId;
    private final String progressTopic;
    /** The offsets API's id ({@code <prefix>:offsets#0}): a partition lost to it is not claimed back. */
    private final String offsetsId;
    private final Seams seams;
    private final ClaimStage claims;
    private final StageBudget budget;
    private final Limits limits;
    private final Clock clock;
    private final StageFailures failures;
    private final FenceMemory memory = new FenceMemory();
    private final SlotLog log;
    private final Map<TopicPartition, PartitionState> states = new HashMap<>();
    private final Map<TopicPartition, Instant> lostAt = new HashMap<>();
    private Map<TopicPartition, Long> ownClaims = Map.of();
    private boolean needsInit = true;
    private final HeldBackRepair heldBack;
    private boolean progressRead;
    private boolean claimsStale;
    private boolean fenceToExplain;
    /** Partitions Connect took away, with the own claim they were held under: a later claim there explains a fence. */
    private final Map<TopicPartition, Long> released = new HashMap<>();
    private final Set<TopicPartition> becameOwned = new HashSet<>();
    private final Set<TopicPartition> becameLost = new HashSet<>();
    private int claimedNow;
    private int fencedNow;
    private long lostTotal;
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
        this.heldBack = heldBack;
        this.ownId = ownId;
        this.progressTopic = progressTopic;
        this.offsetsId = OwnershipRecord.offsetsId(prefix);
        this.seams = seams;
        this.claims = new ClaimStage(prefix, progressTopic, ownId, seams.producer());
        this.budget = budget;
        this.limits = limits;
        this.clock = clock;
        this.failures = new StageFailures(ownId, limits.transientTimeout(), clock);
        this.log = new SlotLog(prefix);
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
        partitions.forEach(partition -> {
            states.put(partition, PartitionState.opened());
            released.remove(partition);
        });
        claimsStale = true;
    }

    /** Connect took {@code partitions} away; only the memory of fences that returned outlives this. */
    public void close(Collection<TopicPartition> partitions) {
        partitions.forEach(partition -> {
            claimOf(states.remove(partition)).ifPresent(claim -> released.put(partition, claim));
            lostAt.remove(partition);
        });
    }

    /** The slot's transaction was refused as fenced: the producer is initialised again at the next put (2.5). */
    public void fenced(boolean outlivedTransactionTimeout) {
        needsInit = true;
        if (outlivedTransactionTimeout) {
            failures.unexplained().fenced(true);
        } else {
            fenceToExplain = true;
        }
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
        needsInit = true;
    }

    /** What the last {@link #advance} stopped on for now (a stage that failed transiently), if it did. */
    public Optional<Throwable> lastFailure() {
        return lastFailure;
    }

    /** The claim {@code partition} is OWNED under, for its progress records' {@code claim} (rule W). */
    public OptionalLong ownedUnder(TopicPartition partition) {
        PartitionState state = states.get(partition);
        return state instanceof PartitionState.Owned owned ? OptionalLong.of(owned.claim()) : OptionalLong.empty();
    }

    /** Every partition opened in this slot and not closed, whatever its state. */
    public Set<TopicPartition> assigned() {
        Set<TopicPartition> assigned = new TreeSet<>(BY_NAME);
        assigned.addAll(states.keySet());
        return assigned;
    }

    /** The partitions opened and not OWNED nor LOST: being claimed, fenced or read. */
    public Set<TopicPartition> opening() {
        return waiting();
    }

    Optional<PartitionState> state(TopicPartition partition) {
        return Optional.ofNullable(states.get(partition));
    }

    /** Whether this slot writes {@code partition} now: {@link #owned()} holds it (asked per partition of a put). */
    public boolean owns(TopicPartition partition) {
        PartitionState state = states.get(partition);
        return !needsInit && state != null && state.writable();
    }

    /** The partitions written by this slot: OWNED ones only (rule W). */
    public Set<TopicPartition> owned() {
        Set<TopicPartition> owned = new TreeSet<>(BY_NAME);
        if (needsInit) {
            return owned; // fenced: nothing is written before the re-initialisation and its reads (2.5)
        }
        states.forEach((partition, state) -> {
            if (state.writable()) {
                owned.add(partition);
            }
        });
        return owned;
    }

    /**
     * How many of {@link #owned()} pass {@code also}, without listing them (asked at every put for the
     * {@code partitions-owned} gauge: no sorted copy of thousands of partitions there).
     */
    public long ownedCount(Predicate<TopicPartition> also) {
        if (needsInit) {
            return 0;
        }
        return states.entrySet().stream().filter(e -> e.getValue().writable() && also.test(e.getKey())).count();
    }

    /** Partitions found claimed by another id since this slot started ({@code partitions-lost-total}). */
    public long lostTotal() {
        return lostTotal;
    }

    /** Runs the next stages that fit {@code put}'s budget. */
    public Opening advance(StageBudget.Put put) {
        becameOwned.clear();
        becameLost.clear();
        claimedNow = 0;
        fencedNow = 0;
        lastFailure = Optional.empty();
        reclaimLostPastTheDelay();
        for (Optional<Step> next = next(); next.isPresent() && put.mayStart(next.get().bound); next = next()) {
            Optional<Throwable> failure;
            try {
                failure = run(next.get());
            } catch (ConnectException e) {
                return new Opening.Failed(e);
            }
            if (failure.isPresent()) {
                lastFailure = failure;
                Optional<ConnectException> failed = failures.failed(failure.get(), waiting());
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
        return new Opening.Progressed(sorted(becameOwned), sorted(becameLost), claimedNow, fencedNow);
    }

    /** The steps of 2.4 and 2.5, each with the kind of stage that bounds it. */
    private enum Step {
        INIT(Stage.COMMIT), READ_PROGRESS(Stage.READ), READ_CLAIMS(Stage.READ), CLAIM(Stage.COMMIT), FENCE(Stage.FENCE);

        private final Stage bound;

        Step(Stage bound) {
            this.bound = bound;
        }
    }

    private Optional<Step> next() {
        if (needsInit) {
            return Optional.of(Step.INIT);
        } else if (!progressRead) {
            return Optional.of(Step.READ_PROGRESS);
        } else if (claimsStale) {
            return Optional.of(Step.READ_CLAIMS);
        } else if (anyIn(PartitionState.New.class)) {
            return Optional.of(Step.CLAIM);
        } else if (anyIn(PartitionState.Claimed.class)) {
            return Optional.of(Step.FENCE);
        } else if (anyIn(PartitionState.Fenced.class)) {
            return Optional.of(Step.READ_PROGRESS);
        }
        return Optional.empty();
    }

    /** Runs {@code step}; a failure for now is returned, a failure for good thrown. */
    private Optional<Throwable> run(Step step) {
        return switch (step) {
            case INIT -> init();
            case READ_PROGRESS -> readProgress();
            case READ_CLAIMS -> readClaims();
            case CLAIM -> claim();
            case FENCE -> fence();
        };
    }

    private Optional<Throwable> init() {
        SlotProducer.Init init = seams.producer().init();
        if (init instanceof SlotProducer.Init.Fatal fatal) {
            throw new ConnectException("initTransactions of " + ownId + " was refused for good", fatal.cause());
        } else if (!(init instanceof SlotProducer.Init.Done)) {
            return Optional.of(init instanceof SlotProducer.Init.Transient t ? t.cause()
                    : ((SlotProducer.Init.Fenced) init).cause());
        }
        needsInit = false;
        claimsStale = true;
        // 2.5: a partition FENCED or OWNED in this instance keeps its proof; each is read again before it is written
        states.replaceAll((partition, state) -> state instanceof PartitionState.Owned owned
                ? new PartitionState.Fenced(owned.claim()) : state);
        return Optional.empty();
    }

    private Optional<Throwable> readClaims() {
        LogRead<OwnershipRecord> read = seams.log().claims(budget.bound(Stage.READ));
        completeIfHeldBack(read, OwnershipRecord.PARTITION);
        if (!(read instanceof LogRead.Read<OwnershipRecord> claimsRead)) {
            return Optional.of(StageFailures.causeOf(read, "claims", progressTopic));
        }
        log.addClaims(claimsRead.records());
        long lostBefore = lostTotal;
        states.replaceAll((partition, state) -> {
            Optional<At<OwnershipRecord>> latest = log.latestClaim(partition);
            Long own = ownClaims.get(partition);
            PartitionState next = own != null ? PartitionState.afterOwnClaim(own, ownId, latest)
                    : state.afterClaimsRead(latest, ownId, proofHere(partition, state),
                    log.progressOf(partition));
            return noteLost(partition, state, next);
        });
        ownClaims = Map.of();
        claimsStale = false;
        if (fenceToExplain) {
            failures.unexplained().fenced(lostTotal > lostBefore || movedAway());
            fenceToExplain = false;
        }
        return Optional.empty();
    }

    private Optional<Throwable> claim() {
        Set<TopicPartition> unclaimed = in(PartitionState.New.class);
        ClaimStage.Claimed claimed = claims.claim(unclaimed);
        claimsStale = true;
        if (claimed instanceof ClaimStage.Claimed.Committed committed) {
            ownClaims = committed.offsets();
            claimedNow += committed.offsets().size();
            return Optional.empty();
        } else if (claimed instanceof ClaimStage.Claimed.Fenced fenced) {
            fenced(false);
            return Optional.of(fenced.cause());
        }
        return Optional.of(((ClaimStage.Claimed.NotKnown) claimed).cause());
    }

    private Optional<Throwable> fence() {
        Map<TopicPartition, Long> claimed = new HashMap<>();
        Set<String> ids = new TreeSet<>();
        states.forEach((partition, state) -> {
            if (state instanceof PartitionState.Claimed c) {
                claimed.put(partition, c.claim());
                ids.addAll(FenceSet.of(partition, ownId, c.claim(), log.claimsOf(partition),
                        log.progressOf(partition)));
            }
        });
        Fencer.Fence fence = ids.isEmpty() ? new Fencer.Fence.Done(Map.of())
                : seams.fencer().fence(ids, budget.bound(Stage.FENCE));
        if (fence instanceof Fencer.Fence.Refused refused) {
            throw new ConnectException("fenceProducers of " + ids + " was refused for good: the target producer's"
                    + " principal needs Write and Describe on the transactional ids of prefix " + ownId
                    .substring(0, ownId.lastIndexOf(':') + 1), refused.cause());
        } else if (fence instanceof Fencer.Fence.Transient t) {
            return Optional.of(t.cause());
        }
        fencedNow += ids.size();
        claimed.forEach((partition, claim) -> {
            memory.fenceReturned(partition, claim);
            states.computeIfPresent(partition, (p, state) -> state.afterFence(claim, fence));
        });
        return Optional.empty();
    }

    private Optional<Throwable> readProgress() {
        LogRead<ProgressMark> read = seams.log().progress(budget.bound(Stage.READ));
        completeIfHeldBack(read, 0);
        if (!(read instanceof LogRead.Read<ProgressMark> marks)) {
            return Optional.of(StageFailures.causeOf(read, "progress", progressTopic));
        }
        log.addProgress(marks.records());
        progressRead = true;
        states.replaceAll((partition, state) -> noteLost(partition, state,
                state.afterProgressRead(log.progressOf(partition))));
        return Optional.empty();
    }

    /** A read held back for its whole bound: what ids of the connector left open there is completed, then retried. */
    private void completeIfHeldBack(LogRead<?> read, int partition) {
        if (read instanceof LogRead.HeldBack<?>) {
            try {
                Set<String> completed = heldBack.complete(partition, budget.bound(Stage.READ));
                if (!completed.isEmpty()) {
                    LOG.info("{} completed what {} left open on partition {} of the progress topic; read again at"
                            + " the next put", ownId, completed, partition);
                }
            } catch (RuntimeException e) {
                LOG.warn("{} could not complete what holds back partition {} of the progress topic: {}", ownId,
                        partition, e.getMessage());
            }
        }
    }

    /** This instance's proof for {@code state}'s claim: a fence that returned here, or FENCED/OWNED before an init. */
    private OptionalLong proofHere(TopicPartition partition, PartitionState state) {
        if (state instanceof PartitionState.Fenced fenced) {
            return OptionalLong.of(fenced.claim());
        }
        return memory.of(partition);
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

    private void reclaimLostPastTheDelay() {
        Instant now = clock.instant();
        lostAt.entrySet().removeIf(entry -> {
            boolean due = !entry.getValue().plus(limits.reclaimAfter()).isAfter(now);
            if (due) {
                states.computeIfPresent(entry.getKey(), (p, state) -> PartitionState.opened());
            }
            return due;
        });
    }

    /** Whether a partition Connect took away was claimed by another id above the claim this slot held it under. */
    private boolean movedAway() {
        return released.entrySet().stream().anyMatch(entry -> log.latestClaim(entry.getKey())
                .filter(at -> at.offset() > entry.getValue() && !at.record().holder().equals(ownId)).isPresent());
    }

    private Set<TopicPartition> waiting() {
        Set<TopicPartition> waiting = new TreeSet<>(BY_NAME);
        states.forEach((partition, state) -> {
            if (!state.writable() && !(state instanceof Lost)) {
                waiting.add(partition);
            }
        });
        return waiting;
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
        Set<TopicPartition> sorted = new TreeSet<>(BY_NAME);
        sorted.addAll(partitions);
        return sorted;
    }

    private boolean anyIn(Class<? extends PartitionState> kind) {
        return states.values().stream().anyMatch(kind::isInstance);
    }

    private Set<TopicPartition> in(Class<? extends PartitionState> kind) {
        Set<TopicPartition> in = new TreeSet<>(BY_NAME);
        states.forEach((partition, state) -> {
            if (kind.isInstance(state)) {
                in.add(partition);
            }
        });
        return in;
    }
}
