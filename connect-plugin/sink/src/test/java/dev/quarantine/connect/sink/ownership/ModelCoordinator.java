package dev.quarantine.connect.sink.ownership;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.cluster.LastTransaction;

/**
 * A scripted transaction coordinator and the partitions it writes markers to: the model the harness of design 5.2
 * runs the ownership rules against. Each transition follows the Kafka method named on it, read in apache/kafka
 * (stored snapshot {@code 1eb7644349c}: {@code TransactionCoordinator.scala}, {@code TransactionMetadata.scala};
 * later changes named where they apply); {@link ModelCoordinatorTest} checks each one. Not modelled: the
 * transaction log and coordinator moves, {@code pendingTransitionInProgress} (every transition here completes at
 * once), timeouts of a single request.
 *
 * <p>Markers follow the response: an {@code EndTxn} answers in PrepareCommit/PrepareAbort and the markers are
 * written after it ({@code endTransaction}'s {@code sendTxnMarkersCallback} answers, then
 * {@code addTxnMarkersToSend}); with {@link #holdMarkers} they wait for {@link #writeMarkers}, else they follow
 * at once.
 */
final class ModelCoordinator {

    enum Version { V1, V2 }

    enum State { EMPTY, ONGOING, PREPARE_COMMIT, PREPARE_ABORT, COMPLETE_COMMIT, COMPLETE_ABORT, PREPARE_EPOCH_FENCE }

    enum Error { NONE, CONCURRENT_TRANSACTIONS, PRODUCER_FENCED, INVALID_TXN_STATE, INVALID_PRODUCER_ID_MAPPING }

    /** A coordinator's answer, with the producer id and epoch it hands back. */
    record Answer(Error error, ProducerEpoch producer) {
    }

    private final Version version;
    private final int epochLimit;
    private final Clock clock;
    private final Duration transactionTimeout;
    private final Map<String, Txn> txns = new HashMap<>();
    private final Map<TopicPartition, ModelPartition> partitions = new HashMap<>();
    private final Map<String, List<Runnable>> afterMarkers = new HashMap<>();
    private long nextProducerId = 1000;
    private boolean holdMarkers;

    /**
     * {@code epochLimit}: {@code Short.MAX_VALUE} as in Kafka ({@code isEpochExhausted}: {@code epoch >= limit - 1}),
     * or a small number so that a test reaches it.
     */
    ModelCoordinator(Version version, int epochLimit, Clock clock, Duration transactionTimeout) {
        this.version = version;
        this.epochLimit = epochLimit;
        this.clock = clock;
        this.transactionTimeout = transactionTimeout;
    }

    Version version() {
        return version;
    }

    /** {@code handleInitProducerId} and {@code prepareInitProducerIdTransit}. */
    synchronized Answer initProducerId(String id, Optional<ProducerEpoch> expected) {
        Txn txn = txns.computeIfAbsent(id, key -> new Txn(key, nextProducerId++));
        if (expected.isPresent() && !txn.isValidProducerId(expected.get())) {
            return error(Error.PRODUCER_FENCED);
        }
        switch (txn.state) {
            case PREPARE_COMMIT, PREPARE_ABORT:
                return error(Error.CONCURRENT_TRANSACTIONS);
            case ONGOING:
                fenceAndAbort(txn);
                return error(Error.CONCURRENT_TRANSACTIONS);
            default:
                break;
        }
        if (exhausted(txn.epoch) && expected.map(e -> e.epoch() == txn.epoch).orElse(true)) {
            // prepareProducerIdRotation
            txn.lastEpoch = expected.isPresent() ? txn.epoch : -1;
            txn.previousProducerId = txn.producerId;
            txn.producerId = nextProducerId++;
            txn.epoch = 0;
        } else if (expected.isEmpty() || txn.epoch == -1 || expected.get().epoch() == txn.epoch) {
            // prepareIncrementProducerEpoch: bump; the last epoch is forgotten unless the producer named its own
            txn.lastEpoch = expected.isEmpty() ? -1 : txn.epoch;
            txn.epoch++;
        } else if (expected.get().epoch() != txn.lastEpoch) {
            return error(Error.PRODUCER_FENCED);
        }
        txn.state = State.EMPTY;
        txn.partitions.clear();
        return new Answer(Error.NONE, txn.producer());
    }

    /** {@code handleAddPartitionsToTransaction} (under version 2 the partition leader sends it for the producer). */
    synchronized Error addPartition(String id, ProducerEpoch producer, TopicPartition partition) {
        Txn txn = txns.get(id);
        if (txn == null || txn.producerId != producer.producerId()) {
            return Error.INVALID_PRODUCER_ID_MAPPING;
        } else if (txn.epoch != producer.epoch()) {
            return Error.PRODUCER_FENCED;
        } else if (txn.state == State.PREPARE_COMMIT || txn.state == State.PREPARE_ABORT) {
            return Error.CONCURRENT_TRANSACTIONS;
        }
        if (txn.state != State.ONGOING) {
            txn.state = State.ONGOING;
            txn.started = clock.instant();
            txn.records = txn.producer();
        }
        txn.partitions.add(partition);
        return Error.NONE;
    }

    /** A produce of a partition added to the id's transaction. */
    synchronized long append(ProducerEpoch producer, TopicPartition partition, byte[] key, byte[] value) {
        return partition(partition).append(producer, key, value);
    }

    /**
     * {@code endTransaction} from a client: the epoch checks of both versions, then {@code prepareAbortOrCommit}.
     * Version 2 as in 4.4 ({@code endTransaction}, read in the 4.4.0 jar): in a Complete state the current epoch is
     * valid too, not only a retry's ({@code retryOnEpochBump}, {@code retryOnOverflow}); an abort at the current epoch
     * from Empty, CompleteCommit or CompleteAbort is a new abort with no partition added
     * ({@code generateTxnTransitMetadataForTxnCompletion(PrepareAbort, noPartitionAdded = true)}), which bumps the
     * epoch and, with no markers to write, completes at once; a commit there, or an abort that is a retry of a
     * commit, is INVALID_TXN_STATE.
     */
    synchronized Answer endTxn(String id, ProducerEpoch producer, boolean commit) {
        Txn txn = txns.get(id);
        if (txn == null) {
            return error(Error.INVALID_PRODUCER_ID_MAPPING);
        }
        boolean v2 = version == Version.V2;
        boolean retryOnEpochBump = v2 && txn.epoch == producer.epoch() + 1;
        boolean retryOnOverflow = v2 && txn.previousProducerId == producer.producerId()
                && exhausted(producer.epoch()) && txn.epoch == 0;
        boolean retry = retryOnEpochBump || retryOnOverflow;
        boolean current = producer.epoch() == txn.epoch;
        boolean validEpoch = !v2 ? current : switch (txn.state) {
            case ONGOING, EMPTY, PREPARE_EPOCH_FENCE -> current;
            case PREPARE_COMMIT, PREPARE_ABORT -> retryOnEpochBump;
            case COMPLETE_COMMIT, COMPLETE_ABORT -> retry || current;
        };
        if (txn.producerId != producer.producerId() && !retryOnOverflow) {
            return error(Error.INVALID_PRODUCER_ID_MAPPING);
        } else if (!validEpoch) {
            return error(Error.PRODUCER_FENCED);
        }
        return switch (txn.state) {
            case ONGOING -> prepareEnd(txn, commit, v2);
            case PREPARE_COMMIT -> error(commit ? Error.CONCURRENT_TRANSACTIONS : Error.INVALID_TXN_STATE);
            case PREPARE_ABORT -> error(commit ? Error.INVALID_TXN_STATE : Error.CONCURRENT_TRANSACTIONS);
            default -> v2 ? endCompleteV2(txn, commit, retry) : endCompleteV1(txn, commit);
        };
    }

    /** Version 1 in Empty, CompleteCommit, CompleteAbort: a retry of the same end answers NONE. */
    private Answer endCompleteV1(Txn txn, boolean commit) {
        return switch (txn.state) {
            case COMPLETE_COMMIT -> commit ? new Answer(Error.NONE, txn.producer()) : error(Error.INVALID_TXN_STATE);
            case COMPLETE_ABORT -> commit ? error(Error.INVALID_TXN_STATE) : new Answer(Error.NONE, txn.producer());
            default -> error(Error.INVALID_TXN_STATE);
        };
    }

    /** Version 2 in Empty, CompleteCommit, CompleteAbort (4.4's {@code endTransaction}). */
    private Answer endCompleteV2(Txn txn, boolean commit, boolean retry) {
        boolean retryOfThisEnd = retry && commit == (txn.state == State.COMPLETE_COMMIT);
        if (retryOfThisEnd) {
            return new Answer(Error.NONE, txn.producer());
        } else if (commit || retry) {
            return error(Error.INVALID_TXN_STATE);
        }
        txn.records = txn.producer();
        return prepareEnd(txn, false, true);
    }

    /**
     * {@code abortTimedOutTransactions}: every transaction ongoing for {@code transaction.timeout.ms} is fenced and
     * aborted as by an {@code InitProducerId} ({@code prepareFenceProducerEpoch}, then an abort not from the client).
     */
    synchronized void abortTimedOut() {
        Instant now = clock.instant();
        txns.values().stream()
                .filter(txn -> txn.state == State.ONGOING && !txn.started.plus(transactionTimeout).isAfter(now))
                .forEach(this::fenceAndAbort);
    }

    /** Writes the markers an ended transaction of {@code id} still waits for, then completes it. */
    synchronized void writeMarkers(String id) {
        Txn txn = txns.get(id);
        boolean commit = txn.state == State.PREPARE_COMMIT;
        if (!commit && txn.state != State.PREPARE_ABORT) {
            throw new IllegalStateException(id + " has no markers to write in " + txn.state);
        }
        txn.partitions.forEach(partition -> partition(partition).marker(txn.markerProducerId, commit));
        txn.partitions.clear();
        txn.state = commit ? State.COMPLETE_COMMIT : State.COMPLETE_ABORT;
        List<Runnable> waiting = afterMarkers.remove(id);
        if (waiting != null) {
            waiting.forEach(Runnable::run);
        }
    }

    /**
     * Runs {@code retry} once the markers {@code id}'s ended transaction waits for are written: a client's retry of a
     * request answered {@code CONCURRENT_TRANSACTIONS} (the model has no backoff; the retry follows the markers).
     */
    synchronized void whenMarkersWritten(String id, Runnable retry) {
        afterMarkers.computeIfAbsent(id, key -> new ArrayList<>()).add(retry);
    }

    synchronized void holdMarkers(boolean hold) {
        this.holdMarkers = hold;
    }

    /** The next marker of {@code producerId} on {@code partition} is skipped (design 2.7.1). */
    synchronized void skipMarkers(TopicPartition partition, long producerId) {
        partition(partition).skipNextMarker(producerId);
    }

    synchronized ModelPartition partition(TopicPartition partition) {
        return partitions.computeIfAbsent(partition, ModelPartition::new);
    }

    synchronized State state(String id) {
        return txns.get(id).state;
    }

    synchronized ProducerEpoch producer(String id) {
        return txns.get(id).producer();
    }

    synchronized short lastEpoch(String id) {
        return txns.get(id).lastEpoch;
    }

    /**
     * The id's last transaction as the model knows it: the producer id and epoch its records carry, which the real
     * {@code LastTransaction} derives from {@code describeTransactions} (its table); empty for none.
     */
    synchronized Optional<LastTransaction> lastTransaction(String id) {
        Txn txn = txns.get(id);
        if (txn == null || txn.records == null || txn.state == State.EMPTY) {
            return Optional.empty();
        }
        boolean aborted = txn.state != State.PREPARE_COMMIT && txn.state != State.COMPLETE_COMMIT;
        return Optional.of(new LastTransaction(aborted, txn.records.producerId(), txn.records.epoch()));
    }

    synchronized Optional<String> transactionalIdOf(long producerId) {
        return txns.entrySet().stream().filter(e -> e.getValue().producerId == producerId
                || e.getValue().previousProducerId == producerId).map(Map.Entry::getKey).findFirst();
    }

    /**
     * A coordinator's abort: {@code prepareFenceProducerEpoch}, then one abort at that epoch (KAFKA-19367). The fence's
     * transition is never applied: version 1's {@code endTransactionWithTV1} sets the bumped epoch and forgets the
     * last one; version 2's {@code prepareAbortOrCommit} bumps from the epoch before and keeps it as the last one.
     */
    private void fenceAndAbort(Txn txn) {
        txn.state = State.PREPARE_EPOCH_FENCE;
        txn.lastEpoch = version == Version.V2 ? txn.epoch : -1;
        txn.epoch++;
        txn.markerProducerId = txn.producerId;
        txn.state = State.PREPARE_ABORT;
        afterPrepare(txn);
    }

    /** {@code prepareAbortOrCommit}; under version 2 the epoch bumps (a new producer id past the limit). */
    private Answer prepareEnd(Txn txn, boolean commit, boolean v2) {
        txn.markerProducerId = txn.producerId;
        txn.state = commit ? State.PREPARE_COMMIT : State.PREPARE_ABORT;
        if (v2 && exhausted(txn.epoch)) {
            txn.previousProducerId = txn.producerId;
            txn.producerId = nextProducerId++;
            txn.lastEpoch = -1;
            txn.epoch = 0;
        } else if (v2) {
            txn.lastEpoch = txn.epoch;
            txn.epoch++;
        }
        Answer answer = new Answer(Error.NONE, txn.producer());
        afterPrepare(txn);
        return answer;
    }

    /** With partitions, markers wait while held; with none there is nothing to write and the end completes. */
    private void afterPrepare(Txn txn) {
        if (!holdMarkers || txn.partitions.isEmpty()) {
            writeMarkers(txn.id);
        }
    }

    private boolean exhausted(int epoch) {
        return epoch >= epochLimit - 1;
    }

    private static Answer error(Error error) {
        return new Answer(error, new ProducerEpoch(-1, (short) -1));
    }

    /** {@code TransactionMetadata}: the fields the transitions read. */
    private final class Txn {
        private final String id;
        private long producerId;
        private long previousProducerId = -1;
        private long markerProducerId;
        private short epoch = -1;
        private short lastEpoch = -1;
        private State state = State.EMPTY;
        private final Set<TopicPartition> partitions = new LinkedHashSet<>();
        private Instant started;
        private ProducerEpoch records;

        private Txn(String id, long producerId) {
            this.id = id;
            this.producerId = producerId;
        }

        private ProducerEpoch producer() {
            return new ProducerEpoch(producerId, epoch);
        }

        /** {@code isValidProducerId} of {@code prepareInitProducerIdTransit}. */
        private boolean isValidProducerId(ProducerEpoch expected) {
            return epoch == -1 || expected.producerId() == producerId
                    || expected.producerId() == previousProducerId && exhausted(expected.epoch());
        }
    }
}
