package dev.quarantine.connect.sink.ownership;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;

import dev.quarantine.connect.sink.cluster.LastTransaction;

/**
 * The admin API's view of transactions in the model ({@link TransactionFacts}): {@code describeTransactions} as
 * {@link ModelCoordinator#lastTransaction}, {@code describeProducers} as the partitions' open ranges,
 * {@code listTransactions} by producer id, and {@code Admin.abortTransaction}, which writes an abort marker for the
 * producer id on its partition only at an epoch no lower than the one open there (a lower one is refused, as the
 * leader refuses a marker of an older epoch: {@code INVALID_PRODUCER_EPOCH}), so every abort is epoch-exact.
 */
final class ModelFacts implements TransactionFacts {

    private final ModelCoordinator model;

    ModelFacts(ModelCoordinator model) {
        this.model = model;
    }

    @Override
    public Answer<Map<String, LastTransaction>> describe(Set<String> transactionalIds) {
        Map<String, LastTransaction> last = new TreeMap<>();
        transactionalIds.forEach(id -> model.lastTransaction(id).ifPresent(transaction -> last.put(id, transaction)));
        return new Answer.Known<>(last);
    }

    @Override
    public Answer<List<OpenTransaction>> openOn(Collection<TopicPartition> partitions) {
        return new Answer.Known<>(partitions.stream().flatMap(partition -> model.partition(partition).open().stream())
                .toList());
    }

    @Override
    public Answer<Optional<String>> transactionalIdOf(long producerId) {
        return new Answer.Known<>(model.transactionalIdOf(producerId));
    }

    @Override
    public Answer<Aborted> abort(OpenTransaction transaction) {
        ModelPartition partition = model.partition(transaction.partition());
        Optional<OpenTransaction> open = partition.open().stream()
                .filter(found -> found.producer().producerId() == transaction.producer().producerId()).findFirst();
        if (open.isEmpty()) {
            return new Answer.Known<>(Aborted.NOTHING_OPEN);
        }
        if (transaction.producer().epoch() < open.get().producer().epoch()) {
            return new Answer.Unknown<>(new InvalidProducerEpochException("abort of " + transaction.producer()
                    + " on " + transaction.partition() + ", open at " + open.get().producer()));
        }
        partition.marker(transaction.producer().producerId(), false);
        return new Answer.Known<>(Aborted.ABORTED);
    }
}
