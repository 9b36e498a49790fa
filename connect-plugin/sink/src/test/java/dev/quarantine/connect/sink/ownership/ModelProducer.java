package dev.quarantine.connect.sink.ownership;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ConcurrentTransactionsException;
import org.apache.kafka.common.errors.InvalidPidMappingException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TransactionAbortedException;

import dev.quarantine.connect.sink.ownership.ModelCoordinator.Answer;
import dev.quarantine.connect.sink.ownership.ModelCoordinator.Error;
import dev.quarantine.txn.SendErrors;
import dev.quarantine.txn.TxnSendOption;

/**
 * A transactional producer of the model, as Kafka's client drives the coordinator: {@code initTransactions} sends
 * {@code InitProducerId} without an epoch and retries {@code CONCURRENT_TRANSACTIONS} once (a fence's abort whose
 * markers followed at once; held markers make it {@link Init.Transient}, as a client's {@code max.block.ms} would);
 * the first send to a partition adds it to the transaction; a version-2 end takes the epoch the coordinator hands
 * back. A transaction the client never started is ended by the client alone, without an {@code EndTxn}: Kafka's
 * {@code TransactionManager} sets {@code transactionStarted} under version 2 at the first send
 * ({@code maybeAddPartition}) and under version 1 once {@code AddPartitionsToTxn} succeeded, and completes an
 * {@code EndTxn} of a transaction not started locally ({@code nextRequest}: "Not sending EndTxn for completed
 * transaction since no send ... were triggered").
 *
 * <p>A partition added while the id's previous transaction still waits for its markers is answered
 * {@code CONCURRENT_TRANSACTIONS} (version 1 by {@code AddPartitionsToTxn}, version 2 by the partition leader's add
 * on the producer's behalf), which the client retries ({@code AddPartitionsToTxnHandler} re-enqueues; under version 2
 * the produce's error is retriable): the send is accepted and waits, with every later send of the transaction behind
 * it, until the markers are written ({@link ModelCoordinator#whenMarkersWritten}); a commit while sends wait is
 * {@link End.Transient}, as a client's {@code commitTransaction} timing out on its unsent batches; an abort fails
 * them ({@code abortUndrainedBatches}).
 */
final class ModelProducer implements SlotProducer {

    private final ModelCoordinator coordinator;
    private final String transactionalId;
    private final Set<TopicPartition> added = new HashSet<>();
    private final List<Waiting> waiting = new ArrayList<>();
    private ProducerEpoch current;
    private boolean started;
    /** A send refused as fenced puts the client in its fatal state: every end fails with it until a new init. */
    private boolean fenced;

    ModelProducer(ModelCoordinator coordinator, String transactionalId) {
        this.coordinator = coordinator;
        this.transactionalId = transactionalId;
    }

    static SlotProducers of(ModelCoordinator coordinator) {
        return id -> new ModelProducer(coordinator, id);
    }

    ProducerEpoch current() {
        return current;
    }

    @Override
    public Init init() {
        Answer answer = coordinator.initProducerId(transactionalId, Optional.empty());
        if (answer.error() == Error.CONCURRENT_TRANSACTIONS) {
            answer = coordinator.initProducerId(transactionalId, Optional.empty());
        }
        return switch (answer.error()) {
            case NONE -> {
                current = answer.producer();
                fenced = false;
                yield new Init.Done(current);
            }
            case CONCURRENT_TRANSACTIONS -> new Init.Transient(new ConcurrentTransactionsException(transactionalId));
            default -> new Init.Fatal(new IllegalStateException(answer.error() + " for " + transactionalId));
        };
    }

    @Override
    public void begin() {
        added.clear();
        started = false;
    }

    @Override
    public Sent send(ProducerRecord<byte[], byte[]> record, TxnSendOption option) {
        synchronized (coordinator) {
            started |= coordinator.version() == ModelCoordinator.Version.V2;
            if (!waiting.isEmpty()) {
                return queue(record);
            }
            Error error = add(record);
            if (error == Error.CONCURRENT_TRANSACTIONS) {
                return queue(record);
            } else if (error != Error.NONE) {
                return new Sent.Failed(failure(error));
            }
            return new Sent.Accepted(CompletableFuture.completedFuture(append(record)));
        }
    }

    /** Adds the record's partition to the transaction if it is not in it yet. */
    private Error add(ProducerRecord<byte[], byte[]> record) {
        TopicPartition partition = new TopicPartition(record.topic(), record.partition());
        if (!added.add(partition)) {
            return Error.NONE;
        }
        Error error = coordinator.addPartition(transactionalId, current, partition);
        if (error != Error.NONE) {
            added.remove(partition);
            fenced |= error == Error.PRODUCER_FENCED;
        } else {
            started = true;
        }
        return error;
    }

    private RecordMetadata append(ProducerRecord<byte[], byte[]> record) {
        TopicPartition partition = new TopicPartition(record.topic(), record.partition());
        long offset = coordinator.append(current, partition, record.key(), record.value());
        return new RecordMetadata(partition, offset, 0, 0L, -1, -1);
    }

    private Sent queue(ProducerRecord<byte[], byte[]> record) {
        Waiting send = new Waiting(record, new CompletableFuture<>());
        if (waiting.isEmpty()) {
            coordinator.whenMarkersWritten(transactionalId, this::retryWaiting);
        }
        waiting.add(send);
        return new Sent.Accepted(send.acknowledged());
    }

    /** The client's retry once the markers are written: the waiting sends in order, or again after more markers. */
    private void retryWaiting() {
        while (!waiting.isEmpty()) {
            Waiting send = waiting.get(0);
            Error error = add(send.record());
            if (error == Error.CONCURRENT_TRANSACTIONS) {
                coordinator.whenMarkersWritten(transactionalId, this::retryWaiting);
                return;
            }
            waiting.remove(0);
            if (error == Error.NONE) {
                send.acknowledged().complete(append(send.record()));
            } else {
                send.acknowledged().completeExceptionally(failure(error));
            }
        }
    }

    /** The exception Kafka's client fails the call with for {@code error} ({@code EndTxnHandler}'s table). */
    private RuntimeException failure(Error error) {
        String what = error + " for " + transactionalId + " at " + current;
        return switch (error) {
            case PRODUCER_FENCED -> new ProducerFencedException(what);
            case INVALID_TXN_STATE -> new InvalidTxnStateException(what);
            case INVALID_PRODUCER_ID_MAPPING -> new InvalidPidMappingException(what);
            default -> new KafkaException("Unhandled error " + what);
        };
    }

    @Override
    public End commit() {
        return end(true);
    }

    @Override
    public End abort() {
        return end(false);
    }

    @Override
    public void close(Duration timeout) {
        synchronized (coordinator) {
            failWaiting("the producer was closed before it was sent");
            added.clear();
            started = false;
        }
    }

    /** The client's {@code abortUndrainedBatches} and a forced close: waiting sends fail, none is sent later. */
    private void failWaiting(String why) {
        waiting.forEach(send -> send.acknowledged().completeExceptionally(new TransactionAbortedException(why)));
        waiting.clear();
    }

    private End end(boolean commit) {
        synchronized (coordinator) {
            if (!waiting.isEmpty() && commit) {
                return new End.Transient(new TimeoutException(waiting.size() + " sends of " + transactionalId
                        + " still wait for the previous transaction's markers"));
            }
            failWaiting("aborted before it was sent");
            return endTxn(commit);
        }
    }

    private End endTxn(boolean commit) {
        added.clear();
        if (fenced) {
            return new End.Fenced(failure(Error.PRODUCER_FENCED));
        }
        if (!started) {
            return new End.Done();
        }
        Answer answer = coordinator.endTxn(transactionalId, current, commit);
        return switch (answer.error()) {
            case NONE -> {
                started = false;
                current = answer.producer();
                yield new End.Done();
            }
            case CONCURRENT_TRANSACTIONS -> new End.Transient(new ConcurrentTransactionsException(transactionalId));
            default -> refused(failure(answer.error()));
        };
    }

    /**
     * A refused end as the real seam answers it ({@code TxnSendSlotProducer}'s table): fencing by
     * {@link SendErrors#isFencing}, which takes INVALID_TXN_STATE and INVALID_PRODUCER_ID_MAPPING for fences too (the
     * producer is unusable either way: a new one of the id, then init); anything else Fatal.
     */
    private static End refused(RuntimeException e) {
        return SendErrors.isFencing(e) ? new End.Fenced(e) : new End.Fatal(e);
    }

    /** A send waiting for the previous transaction's markers, and its future. */
    private record Waiting(ProducerRecord<byte[], byte[]> record, CompletableFuture<RecordMetadata> acknowledged) {
    }
}
