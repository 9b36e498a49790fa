package dev.quarantine.connect.sink.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Aborts the records an aborted transaction of a partition's transactional id left open ("hanging", KIP-664) on the
 * topics its writer is about to write again, before it writes them.
 *
 * <p>Why: a broker restarting can load its transaction state before its metadata lists a transaction's partitions;
 * its coordinator then skips their markers as if the topics were deleted and completes the transaction anyway (the
 * broker logs "Couldn't find leader endpoint for partitions ... likely deleted already"). When that transaction was
 * being aborted (ours, after a commit that timed out while the broker went down, or the one a new producer's
 * initTransactions aborts), its records stay open in the target and DLQ partitions while the batch is written again
 * from the progress, which the abort left where it was; the producer's next commit marker, which applies to its
 * producer id whatever the epoch, would then make the aborted records visible next to their new copies: duplicates.
 * Aborting them first is what the coordinator meant to do. A transaction left hanging after a commit is left alone:
 * its progress went forward with it, and the producer's next commit marker completes it.
 *
 * <p>Hanging is narrowed to the one transaction known to be aborted, never "an epoch below the current one": from
 * {@code transaction.version} 2 on (KIP-890, Kafka 4.x's default) every transaction ends with an epoch bump, so a
 * committed transaction left open has an older epoch too, and aborting it would lose its records, whose progress went
 * forward. What is aborted is an open transaction carrying the producer id and an epoch the records of the id's last
 * transaction may carry (the one described or, as the coordinator's own abort leaves it, the one below) when that
 * ended in an abort ({@link LastTransaction}, from the coordinator's description before the
 * new producer's initTransactions, or after our own abort), on a partition the coordinator does not list for the
 * id's current transaction; once the aborted transaction was found open on the progress partition, only the epoch
 * its records carry there ({@link LastTransaction#foundOpenIn}): with version 1 the one below the described epoch
 * is also the previous producer session's, whose committed transaction may be open on a target partition (markers
 * skipped, its progress record completed since). With version 1 all transactions of a producer session share one
 * epoch, so an open one on a target or dead-letter partition could be an earlier, committed transaction of the
 * session: it is aborted only while the aborted transaction is still open on the progress partition too, else left
 * alone and logged; an earlier commit of the same session left open on a target partition is not told apart. A
 * last transaction whose records' producer id is unknown (rotated when its epochs ran out) is not repaired; that is
 * logged too.
 *
 * <p>A committed transaction C left open on a target or dead-letter partition X is not repaired here: the next
 * transaction of the producer id that writes X and aborts would abort C's records there too, while the progress is
 * past them, and rule V ({@link WrittenRepair}, docs/design/sink-ownership.md 2.7.1) finds that from the
 * {@code written} lines C committed with its progress and redoes what was lost.
 *
 * <p>A committed transaction left open on the progress partition holds back every {@code read_committed} read of
 * it, for every task: {@link #lastCommitLeftOpen} says so (found with the ids' last transactions, before
 * initTransactions), and the writer completes it with a commit of its own there (its marker, for the same producer
 * id, completes the open records) before reading the progress. Only the id's own writer does: one of an id no task
 * opens any more (an orphan) holds back every progress read, each open failing after progress.read.timeout.ms (a
 * limit, shown by {@code HangingTransactionIT}).
 *
 * <p>Whether the id's last transaction was aborted must be read before the new producer's initTransactions, which
 * forgets it. A task opening many partitions reads it for all their ids together, before creating any of their
 * producers: {@value TransactionAdmin#IDS_PER_DESCRIBE} ids per describeTransactions call (the admin client asks each
 * coordinator about its ids in one request), instead of one call per partition. The answer is as old as the
 * partitions' opening (seconds, instead of the moment before each initTransactions): a previous owner of an id that
 * is still writing (a zombie, which initTransactions fences) may end its transaction in between, as it could before
 * between the call and initTransactions.
 */
public final class HangingTransactions implements HangingTransactionCheck {

    private static final Logger log = LoggerFactory.getLogger(HangingTransactions.class);

    /** The states in which the id's last transaction was, or is being, aborted. */
    private static final Set<TransactionState> ABORTING = Set.of(TransactionState.ONGOING,
            TransactionState.PREPARE_ABORT, TransactionState.COMPLETE_ABORT, TransactionState.PREPARE_EPOCH_FENCE);

    /** The name of the finalized feature of KIP-890's transaction protocol. */
    public static final String TRANSACTION_VERSION = "transaction.version";

    private final TransactionAdmin admin;
    private final String progressTopic;
    /** The last transaction of each id as described before its new producer's initTransactions, until forgotten. */
    private final Map<String, Optional<LastTransaction>> beforeInit = new ConcurrentHashMap<>();
    /**
     * The aborted last transaction of each id as found open on the progress partition (and aborted there), with the
     * epoch its records carry there.
     */
    private final Map<String, LastTransaction> foundOnProgress = new ConcurrentHashMap<>();
    /**
     * The committed last transaction of each id found open on the progress partition before initTransactions, with
     * the epoch its records carry there.
     */
    private final Map<String, LastTransaction> commitsLeftOpen = new ConcurrentHashMap<>();

    public HangingTransactions(ClusterAdmins admins, Duration timeout, String progressTopic) {
        this.admin = new TransactionAdmin(admins, timeout);
        this.progressTopic = progressTopic;
    }

    /**
     * The hanging transactions among {@code states}: those of {@code last}, when it was aborted, on partitions the
     * coordinator does not list for the id's {@code current} transaction. When it was found open on the progress
     * partition ({@code onProgress}, see {@link LastTransaction#foundOpenIn}) only with the epoch its records carry
     * there. With {@code transaction.version} 1 ({@code epochBumpedAtEnd} false) an open transaction of the session's
     * epoch elsewhere may also be an earlier, committed one left open there: it is aborted all the same, and rule V
     * (docs/design/sink-ownership.md 2.7.1) finds that commit's line aborted before its partition is written and redoes
     * it; leaving it alone let the id's next commit marker make the aborted records visible (a duplicate).
     */
    static List<AbortTransactionSpec> hanging(LastTransaction last, TransactionDescription current,
                                              Map<TopicPartition, PartitionProducerState> states,
                                              Optional<LastTransaction> onProgress, boolean epochBumpedAtEnd) {
        List<AbortTransactionSpec> hanging = new ArrayList<>();
        if (!last.aborted()) {
            return hanging;
        }
        LastTransaction aborted = onProgress.orElse(last);
        states.forEach((partition, state) -> {
            for (ProducerState producer : state.activeProducers()) {
                if (aborted.wrote(producer.producerId(), producer.producerEpoch())
                        && producer.currentTransactionStartOffset().isPresent()
                        && !current.topicPartitions().contains(partition)) {
                    hanging.add(new AbortTransactionSpec(partition, producer.producerId(),
                            (short) producer.producerEpoch(), producer.coordinatorEpoch().orElse(0)));
                }
            }
        });
        return hanging;
    }

    /** Whether the id's last transaction ended, or ends, in an abort (an unknown id has none). */
    @Override
    public boolean lastTransactionAborted(String transactionalId) {
        return lastTransactionsAborted(List.of(transactionalId)).contains(transactionalId);
    }

    /**
     * The ids whose last transaction ended, or ends, in an abort: all described at once, in calls of at most
     * {@value TransactionAdmin#IDS_PER_DESCRIBE} ids, within one timeout.
     *
     * @throws RetriableException when the target cluster did not answer in time, naming the first id it did not answer
     * @throws ConnectException   when it refused, naming the id and the ACLs to check
     */
    @Override
    public Set<String> lastTransactionsAborted(Collection<String> transactionalIds) {
        LastTransactions described = describeLastTransactions(transactionalIds);
        described.failed().values().stream().findFirst().ifPresent(failure -> {
            throw failure;
        });
        return described.aborted();
    }

    /**
     * The ids whose last transaction ended, or ends, in an abort, described as {@link #lastTransactionsAborted} does,
     * but an id whose own answer failed, or did not come within the timeout, is one of those failed (the failure names
     * it): the others go on.
     */
    @Override
    public LastTransactions describeLastTransactions(Collection<String> transactionalIds) {
        Map<String, KafkaFuture<TransactionDescription>> described = admin.describeTogether(transactionalIds);
        Set<String> aborted = new HashSet<>();
        Map<String, RuntimeException> failed = new LinkedHashMap<>();
        described.forEach((id, description) -> {
            Optional<TransactionDescription> last;
            try {
                last = admin.answer(id, description);
            } catch (ConnectException e) { // a RetriableException too: the id's own answer failed
                failed.put(id, e);
                return;
            }
            if (aborted(id, last)) { // the cluster's transaction version, when it fails, fails every id
                aborted.add(id);
            }
        });
        findCommitsLeftOpen(described.keySet().stream().filter(id -> !failed.containsKey(id)).toList());
        return new LastTransactions(aborted, failed);
    }

    /**
     * Of {@code ids}, those whose committed last transaction is open on the progress partition: one
     * describeProducers call for all of them, and only when any of them last committed.
     */
    private void findCommitsLeftOpen(Collection<String> ids) {
        Map<String, LastTransaction> committed = new HashMap<>();
        ids.forEach(id -> beforeInit.getOrDefault(id, Optional.empty()).filter(last -> !last.aborted())
                .ifPresent(last -> committed.put(id, last)));
        ids.forEach(commitsLeftOpen::remove);
        if (committed.isEmpty()) {
            return;
        }
        String anId = committed.keySet().iterator().next();
        String opened = committed.size() == 1 ? anId : "any of " + committed.size() + " ids opened together (" + anId
                + ", ...)"; // the progress partition is theirs alike
        TopicPartition progress = new TopicPartition(progressTopic, 0);
        if (!admin.partitions(List.of(progressTopic), opened).contains(progress)) {
            return; // no progress topic (describing its producers would wait out the timeout): its reader says so
        }
        PartitionProducerState state = admin.producers(progress, opened);
        committed.forEach((id, last) -> last.foundOpenIn(state).ifPresent(open -> commitsLeftOpen.put(id, open)));
    }

    private boolean aborted(String transactionalId, Optional<TransactionDescription> described) {
        if (described.isEmpty()) {
            beforeInit.put(transactionalId, Optional.empty());
            return false;
        }
        beforeInit.put(transactionalId, LastTransaction.of(described.get(), admin.epochBumpedAtEnd()));
        return ABORTING.contains(described.get().state());
    }

    /** The id's writer aborted or committed a transaction of its own: that one is the id's last from now on. */
    @Override
    public void forget(String transactionalId) {
        beforeInit.remove(transactionalId);
        commitsLeftOpen.remove(transactionalId);
        foundOnProgress.remove(transactionalId);
    }

    /**
     * The id's last transaction: as described before its new producer's initTransactions, unless its writer has
     * ended one since ({@link #forget}), else as described now.
     */
    private Optional<LastTransaction> last(String transactionalId, TransactionDescription current) {
        Optional<LastTransaction> before = beforeInit.get(transactionalId);
        return before != null ? before : LastTransaction.of(current, admin.epochBumpedAtEnd());
    }

    /**
     * Aborts the transactions of {@code transactionalId} left hanging on the partitions of {@code topics}.
     *
     * @throws RetriableException when the target cluster did not answer in time (the batch is delivered again)
     * @throws ConnectException   when it refused, naming the ACLs to check
     */
    @Override
    public void abortBeforeWriting(String transactionalId, Collection<String> topics) {
        TransactionDescription current = admin.describe(transactionalId);
        Optional<LastTransaction> last = last(transactionalId, current);
        if (last.isEmpty() || !last.get().aborted()) {
            if (last.isEmpty() && ABORTING.contains(current.state())) {
                log.warn("The last transaction of {} was aborted, but the producer id its records were written with"
                        + " is not known (rotated when its epochs ran out): what its abort left open, if anything, is"
                        + " not repaired", transactionalId);
            }
            return;
        }
        Set<String> described = new TreeSet<>(topics);
        described.add(progressTopic);
        List<TopicPartition> partitions = admin.partitions(described, transactionalId);
        Map<TopicPartition, PartitionProducerState> states = new LinkedHashMap<>(admin.producers(partitions,
                described, transactionalId));
        TopicPartition progress = new TopicPartition(progressTopic, 0);
        Optional<LastTransaction> onProgress = last.get().foundOpenIn(states.get(progress));
        if (onProgress.isPresent()) {
            foundOnProgress.put(transactionalId, onProgress.get()); // still known once aborted there
        } else {
            onProgress = Optional.ofNullable(foundOnProgress.get(transactionalId));
        }
        states.keySet().removeIf(partition -> !topics.contains(partition.topic()));
        List<AbortTransactionSpec> hanging = hanging(last.get(), current, states, onProgress,
                admin.epochBumpedAtEnd());
        for (AbortTransactionSpec spec : hanging) {
            log.warn("Aborting a transaction of {} left hanging (its markers were never written) before writing"
                    + " there again: {}", transactionalId, spec);
            admin.abort(spec, transactionalId);
        }
    }

    /**
     * The id's last transaction, described before its new producer's initTransactions, with the epoch its records
     * carry on the progress partition, when it committed but is still open there (its marker skipped by a restarting
     * broker): the writer's next commit there completes it, as its marker applies to the producer id's open records.
     * (A producer id rotated at that initTransactions, after its epochs ran out, would not: that is not detected.)
     */
    @Override
    public Optional<LastTransaction> lastCommitLeftOpen(String transactionalId) {
        return Optional.ofNullable(commitsLeftOpen.get(transactionalId));
    }
}
