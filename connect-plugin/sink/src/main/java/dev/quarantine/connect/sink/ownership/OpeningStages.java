package dev.quarantine.connect.sink.ownership;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.ownership.Ownership.HeldBackRepair;
import dev.quarantine.connect.sink.ownership.Ownership.Seams;
import dev.quarantine.connect.sink.ownership.OwnershipLog.At;
import dev.quarantine.connect.sink.ownership.OwnershipLog.LogRead;
import dev.quarantine.connect.sink.ownership.OwnershipLog.ProgressMark;
import dev.quarantine.connect.sink.ownership.StageBudget.Stage;
import dev.quarantine.connect.sink.progress.OwnershipRecord;

/**
 * The stages that open one slot's partitions (design 2.4, 2.5): which one runs next, and each one's round trip through
 * the seams, its answer moving the partitions ({@link SlotPartitions}) as {@link PartitionState} decides. A stage that
 * fails for now answers its cause and leaves every partition where it was; one that fails for good throws.
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
 * A fence of the slot is explained (not counted by {@link UnexplainedFences}) when the read of partition 1 after it
 * shows a partition of the slot lost, or one Connect took away claimed by another id above the slot's claim.
 */
final class OpeningStages {

    /** Logged under {@link Ownership}'s name, where the stages have always been logged. */
    private static final Logger LOG = LoggerFactory.getLogger(Ownership.class);

    /** The steps of 2.4 and 2.5, each with the kind of stage that bounds it. */
    enum Step {
        INIT(Stage.COMMIT), READ_PROGRESS(Stage.READ), READ_CLAIMS(Stage.READ), CLAIM(Stage.COMMIT), FENCE(Stage.FENCE);

        final Stage bound;

        Step(Stage bound) {
            this.bound = bound;
        }
    }

    private final String ownId;
    private final String progressTopic;
    private final Seams seams;
    private final ClaimStage claims;
    private final StageBudget budget;
    private final HeldBackRepair heldBack;
    private final UnexplainedFences unexplained;
    private final SlotPartitions partitions;
    private final FenceMemory memory = new FenceMemory();
    private final SlotLog log;
    private Map<TopicPartition, Long> ownClaims = Map.of();
    private boolean needsInit = true;
    private boolean progressRead;
    private boolean claimsStale;
    private boolean fenceToExplain;
    private int claimedNow;
    private int fencedNow;

    OpeningStages(String prefix, String progressTopic, String ownId, Seams seams, StageBudget budget,
                  HeldBackRepair heldBack, UnexplainedFences unexplained, SlotPartitions partitions) {
        this.ownId = ownId;
        this.progressTopic = progressTopic;
        this.seams = seams;
        this.claims = new ClaimStage(prefix, progressTopic, ownId, seams.producer());
        this.budget = budget;
        this.heldBack = heldBack;
        this.unexplained = unexplained;
        this.partitions = partitions;
        this.log = new SlotLog(prefix);
    }

    /** Partitions were opened: partition 1 is read again. */
    void opened() {
        claimsStale = true;
    }

    /** The slot's producer was fenced: initialised again; explained by the next read of partition 1, or not. */
    void fenced(boolean outlivedTransactionTimeout) {
        needsInit = true;
        if (outlivedTransactionTimeout) {
            unexplained.fenced(true);
        } else {
            fenceToExplain = true;
        }
    }

    /** The slot's producer is initialised again at the next stage, not counted as a fence. */
    void reinitialise() {
        needsInit = true;
    }

    /** Whether the producer is initialised (not fenced since): until then nothing is written. */
    boolean initialised() {
        return !needsInit;
    }

    /** An advance starts: nothing claimed or fenced in it yet. */
    void startAdvance() {
        claimedNow = 0;
        fencedNow = 0;
    }

    /** How many partitions the slot claimed since the advance started. */
    int claimedNow() {
        return claimedNow;
    }

    /** How many transactional ids the slot fenced since the advance started. */
    int fencedNow() {
        return fencedNow;
    }

    Optional<Step> next() {
        if (needsInit) {
            return Optional.of(Step.INIT);
        } else if (!progressRead) {
            return Optional.of(Step.READ_PROGRESS);
        } else if (claimsStale) {
            return Optional.of(Step.READ_CLAIMS);
        } else if (partitions.anyIn(PartitionState.New.class)) {
            return Optional.of(Step.CLAIM);
        } else if (partitions.anyIn(PartitionState.Claimed.class)) {
            return Optional.of(Step.FENCE);
        } else if (partitions.anyIn(PartitionState.Fenced.class)) {
            return Optional.of(Step.READ_PROGRESS);
        }
        return Optional.empty();
    }

    /** Runs {@code step}; a failure for now is returned, a failure for good thrown. */
    Optional<Throwable> run(Step step) {
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
            return Optional.of(((Caused) init).cause());
        }
        needsInit = false;
        claimsStale = true;
        // 2.5: a partition FENCED or OWNED in this instance keeps its proof; each is read again before it is written
        partitions.transition((partition, state) -> state instanceof PartitionState.Owned owned
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
        long lostBefore = partitions.lostTotal();
        partitions.transition((partition, state) -> {
            Optional<At<OwnershipRecord>> latest = log.latestClaim(partition);
            Long own = ownClaims.get(partition);
            return own != null ? PartitionState.afterOwnClaim(own, ownId, latest)
                    : state.afterClaimsRead(latest, ownId, proofHere(partition, state), log.progressOf(partition));
        });
        ownClaims = Map.of();
        claimsStale = false;
        if (fenceToExplain) {
            unexplained.fenced(partitions.lostTotal() > lostBefore || movedAway());
            fenceToExplain = false;
        }
        return Optional.empty();
    }

    private Optional<Throwable> claim() {
        Set<TopicPartition> unclaimed = partitions.in(PartitionState.New.class);
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
        Map<TopicPartition, Long> claimed = partitions.claimed();
        Set<String> ids = new TreeSet<>();
        claimed.forEach((partition, claim) -> ids.addAll(FenceSet.of(partition, ownId, claim, log.claimsOf(partition),
                log.progressOf(partition))));
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
        claimed.forEach(memory::fenceReturned);
        partitions.transition((partition, state) -> claimed.containsKey(partition)
                ? state.afterFence(claimed.get(partition), fence) : state);
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
        partitions.transition((partition, state) -> state.afterProgressRead(log.progressOf(partition)));
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

    /** Whether a partition Connect took away was claimed by another id above the claim this slot held it under. */
    private boolean movedAway() {
        return partitions.released().entrySet().stream().anyMatch(entry -> log.latestClaim(entry.getKey())
                .filter(at -> at.offset() > entry.getValue() && !at.record().holder().equals(ownId)).isPresent());
    }
}
