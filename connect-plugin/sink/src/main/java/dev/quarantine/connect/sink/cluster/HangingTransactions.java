package dev.quarantine.connect.sink.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.DescribeTransactionsResult;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.txn.SendErrors;

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
 * producers: {@value #IDS_PER_DESCRIBE} ids per describeTransactions call (the admin client asks each coordinator
 * about its ids in one request), instead of one call per partition. The answer is as old as the partitions' opening
 * (seconds, instead of the moment before each initTransactions): a previous owner of an id that is still writing
 * (a zombie, which initTransactions fences) may end its transaction in between, as it could before between the
 * call and initTransactions.
 */
public final class HangingTransactions implements HangingTransactionCheck {

    private static final Logger log = LoggerFactory.getLogger(HangingTransactions.class);

    /** The states in which the id's last transaction was, or is being, aborted. */
    private static final Set<TransactionState> ABORTING = Set.of(TransactionState.ONGOING,
            TransactionState.PREPARE_ABORT, TransactionState.COMPLETE_ABORT, TransactionState.PREPARE_EPOCH_FENCE);

    /** The name of the finalized feature of KIP-890's transaction protocol. */
    private static final String CLIENT_VERSION_RESOURCE = "kafka/kafka-version.properties";
    public static final String TRANSACTION_VERSION = "transaction.version";

    /** At most this many transactional ids per describeTransactions call. */
    static final int IDS_PER_DESCRIBE = 500;

    private final ClusterAdmins admins;
    private final Duration timeout;
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
    private volatile Boolean epochBumpedAtEnd;

    public HangingTransactions(ClusterAdmins admins, Duration timeout, String progressTopic) {
        this.admins = admins;
        this.timeout = timeout;
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
     * {@value #IDS_PER_DESCRIBE} ids, within one timeout.
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
        Map<String, KafkaFuture<TransactionDescription>> described = new LinkedHashMap<>();
        List<String> ids = List.copyOf(transactionalIds);
        for (int from = 0; from < ids.size(); from += IDS_PER_DESCRIBE) {
            List<String> call = ids.subList(from, Math.min(ids.size(), from + IDS_PER_DESCRIBE));
            DescribeTransactionsResult result = admins.target().describeTransactions(call);
            call.forEach(id -> described.put(id, result.description(id)));
        }
        settle(described);
        Set<String> aborted = new HashSet<>();
        Map<String, RuntimeException> failed = new LinkedHashMap<>();
        described.forEach((id, description) -> {
            Optional<TransactionDescription> last;
            try {
                last = answer(id, description);
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
        if (!partitions(admins.target(), List.of(progressTopic), opened).contains(progress)) {
            return; // no progress topic (describing its producers would wait out the timeout): its reader says so
        }
        PartitionProducerState state = await(admins.target().describeProducers(List.of(progress))
                .partitionResult(progress), "describe the producers of " + progress, opened);
        committed.forEach((id, last) -> last.foundOpenIn(state).ifPresent(open -> commitsLeftOpen.put(id, open)));
    }

    /**
     * The id's last transaction as described, empty for an id never used.
     *
     * @throws RetriableException when its answer did not come within the timeout (see {@link #settle}) or failed
     *                            transiently
     * @throws ConnectException   when it failed for good
     */
    private Optional<TransactionDescription> answer(String transactionalId,
                                                    KafkaFuture<TransactionDescription> description) {
        if (!description.isDone()) {
            throw new RetriableException("Could not describe transactional id " + transactionalId + " within "
                    + timeout.toMillis() + " ms, to find transactions left hanging by an earlier producer of it;"
                    + " its partition is opened later");
        }
        try {
            return Optional.of(await(description, "describe transactional id " + transactionalId, transactionalId));
        } catch (ConnectException e) {
            if (e.getCause() instanceof TransactionalIdNotFoundException) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private boolean aborted(String transactionalId, Optional<TransactionDescription> described) {
        if (described.isEmpty()) {
            beforeInit.put(transactionalId, Optional.empty());
            return false;
        }
        beforeInit.put(transactionalId, LastTransaction.of(described.get(), epochBumpedAtEnd()));
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
     * Whether our producers end their transactions with an epoch bump (KIP-890's transaction version 2): the
     * cluster's finalized {@code transaction.version} is 2 or more and the client (the worker's kafka-clients) is 4.0
     * or newer, asked once.
     */
    private boolean epochBumpedAtEnd() {
        Boolean known = epochBumpedAtEnd;
        if (known == null) {
            FeatureMetadata features = await(admins.target().describeFeatures().featureMetadata(),
                    "describe the cluster's finalized features", "the task");
            FinalizedVersionRange version = features.finalizedFeatures().get(TRANSACTION_VERSION);
            known = endsWithEpochBump(version == null ? 0 : version.maxVersionLevel(), clientVersion(admins.target()));
            epochBumpedAtEnd = known;
        }
        return known;
    }

    /**
     * The version of the kafka-clients {@code admin} runs on (the worker's, which our producers share), from the
     * {@code kafka/kafka-version.properties} resource of that kafka-clients jar: what its own app-info reads, on 3.9
     * through 4.4. Not from the {@code app-info} metrics: a client whose {@code client.id} another client of the JVM
     * holds already (a user's {@code target.admin.client.id} shared by a task's admins) registers none. "unknown" when
     * the resource cannot be read, which counts as a client older than 4.0.
     */
    static String clientVersion(Admin admin) {
        try (InputStream in = admin.getClass().getClassLoader().getResourceAsStream(CLIENT_VERSION_RESOURCE)) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown").trim();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /**
     * Whether a producer of client {@code clientVersion} ends its transactions with an epoch bump on a cluster of
     * {@code transactionVersion}: only a 4.0 or newer client uses version 2 (3.9's has no KIP-890 client side); a
     * version that cannot be read counts as older, whose aborts {@link LastTransaction} reads the wider way.
     */
    static boolean endsWithEpochBump(int transactionVersion, String clientVersion) {
        if (transactionVersion < 2) {
            return false;
        }
        int dot = clientVersion.indexOf('.');
        String major = dot < 0 ? clientVersion : clientVersion.substring(0, dot);
        try {
            return Integer.parseInt(major) >= 4;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * The id's last transaction: as described before its new producer's initTransactions, unless its writer has
     * ended one since ({@link #forget}), else as described now.
     */
    private Optional<LastTransaction> last(String transactionalId, TransactionDescription current) {
        Optional<LastTransaction> before = beforeInit.get(transactionalId);
        return before != null ? before : LastTransaction.of(current, epochBumpedAtEnd());
    }

    /** Waits until every description has an answer, whichever, within the timeout. */
    private void settle(Map<String, KafkaFuture<TransactionDescription>> described) {
        CompletableFuture<?>[] answers = described.values().stream()
                .map(f -> f.toCompletionStage().toCompletableFuture().exceptionally(e -> null))
                .toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(answers).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            log.info("{} of {} transactional ids described together had no answer within {} ms: they are opened"
                    + " later, the others now", described.values().stream().filter(f -> !f.isDone()).count(),
                    described.size(), timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while describing the last transactions of "
                    + described.size() + " transactional ids", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Answers that failed were turned into none", e);
        }
    }

    /**
     * Aborts the transactions of {@code transactionalId} left hanging on the partitions of {@code topics}.
     *
     * @throws RetriableException when the target cluster did not answer in time (the batch is delivered again)
     * @throws ConnectException   when it refused, naming the ACLs to check
     */
    @Override
    public void abortBeforeWriting(String transactionalId, Collection<String> topics) {
        Admin admin = admins.target();
        TransactionDescription current = await(admin.describeTransactions(List.of(transactionalId))
                .description(transactionalId), "describe transactional id " + transactionalId, transactionalId);
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
        List<TopicPartition> partitions = partitions(admin, described, transactionalId);
        Map<TopicPartition, PartitionProducerState> states = new LinkedHashMap<>(await(admin.describeProducers(
                partitions).all(), "describe the producers of " + described, transactionalId));
        TopicPartition progress = new TopicPartition(progressTopic, 0);
        Optional<LastTransaction> onProgress = last.get().foundOpenIn(states.get(progress));
        if (onProgress.isPresent()) {
            foundOnProgress.put(transactionalId, onProgress.get()); // still known once aborted there
        } else {
            onProgress = Optional.ofNullable(foundOnProgress.get(transactionalId));
        }
        states.keySet().removeIf(partition -> !topics.contains(partition.topic()));
        List<AbortTransactionSpec> hanging = hanging(last.get(), current, states, onProgress, epochBumpedAtEnd());
        for (AbortTransactionSpec spec : hanging) {
            log.warn("Aborting a transaction of {} left hanging (its markers were never written) before writing"
                    + " there again: {}", transactionalId, spec);
            await(admin.abortTransaction(spec).all(), "abort the hanging transaction " + spec, transactionalId);
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

    /** The partitions of those {@code topics} that exist (a missing one holds no transaction). */
    private List<TopicPartition> partitions(Admin admin, Collection<String> topics, String transactionalId) {
        List<TopicPartition> partitions = new ArrayList<>();
        admin.describeTopics(topics).topicNameValues().forEach((topic, described) -> {
            try {
                await(described, "describe topic " + topic, transactionalId).partitions()
                        .forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
            } catch (ConnectException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
        });
        return partitions;
    }

    /** Waits {@link #timeout}. */
    private <T> T await(KafkaFuture<T> future, String what, String transactionalId) {
        long waitMs = timeout.toMillis();
        try {
            return future.get(waitMs, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new RetriableException("Could not " + what + " within " + waitMs + " ms, to find"
                    + " transactions left hanging by an earlier producer of " + transactionalId + "; the batch is"
                    + " delivered again", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while looking for hanging transactions of " + transactionalId, e);
        } catch (ExecutionException e) {
            throw failure(what, transactionalId, e.getCause());
        }
    }

    private static ConnectException failure(String what, String transactionalId, Throwable cause) {
        if (SendErrors.isTransient(cause) && !(cause instanceof UnknownTopicOrPartitionException)
                && !(cause instanceof TransactionalIdNotFoundException)) {
            return new RetriableException("Could not " + what + " (" + cause + "), to find transactions left"
                    + " hanging by an earlier producer of " + transactionalId + "; the batch is delivered again",
                    cause);
        }
        return new ConnectException("Could not " + what + ": " + cause + ". Before a partition's producer"
                + " writes again after an abort, the task aborts what the abort left open (markers skipped by a"
                + " restarting broker)" + (cause instanceof AuthorizationException ? "; check the ACLs of "
                + TransactionalSinkConfig.TARGET_ADMIN_PREFIX + "*: Read on the target, dead-letter and progress"
                + " topics, Describe on the transactional ids, and Alter on the cluster to abort one" : ""), cause);
    }
}
