package dev.quarantine.connect.sink.ownership;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apache.kafka.common.errors.ConcurrentTransactionsException;

import dev.quarantine.connect.sink.ownership.ModelCoordinator.Answer;
import dev.quarantine.connect.sink.ownership.ModelCoordinator.Error;

/**
 * {@code Admin.fenceProducers} against the model, as {@code FenceProducersHandler} does it: per id an
 * {@code InitProducerId} without producer id or epoch, {@code CONCURRENT_TRANSACTIONS} retried (its
 * {@code handleError}); so it returns only after its own bump. The model's markers follow at once unless held, so
 * one retry ends a fence's own abort; a transaction whose markers are held keeps answering
 * {@code CONCURRENT_TRANSACTIONS}, which the real handler retries until its timeout: {@link Fence.Transient}, with the
 * ids before it fenced (applied in part, as a real timeout may be).
 */
final class ModelFencer implements Fencer {

    private final ModelCoordinator coordinator;

    ModelFencer(ModelCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public Fence fence(Set<String> transactionalIds, Duration bound) {
        Map<String, ProducerEpoch> epochs = new TreeMap<>();
        for (String id : new TreeSet<>(transactionalIds)) {
            Answer answer = coordinator.initProducerId(id, Optional.empty());
            if (answer.error() == Error.CONCURRENT_TRANSACTIONS) {
                answer = coordinator.initProducerId(id, Optional.empty());
            }
            if (answer.error() != Error.NONE) {
                return new Fence.Transient(new ConcurrentTransactionsException("fencing " + id + ": "
                        + answer.error()));
            }
            epochs.put(id, answer.producer());
        }
        return new Fence.Done(epochs);
    }
}
