package dev.quarantine.connect.sink.ownership;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.cluster.LastTransaction;

/**
 * What the target cluster's admin API says about transactions, for the repairs of design 2.7. Real:
 * {@code HangingTransactions} over {@code ClusterAdmins} (sink.cluster); every answer says whether it is known.
 */
interface TransactionFacts {

    /** {@code describeTransactions}: each id's last transaction, absent for an id with none to look for. */
    Answer<Map<String, LastTransaction>> describe(Set<String> transactionalIds);

    /** {@code describeProducers}: the transactions open on {@code partitions}. */
    Answer<List<OpenTransaction>> openOn(Collection<TopicPartition> partitions);

    /** {@code listTransactions} filtered by producer id. */
    Answer<Optional<String>> transactionalIdOf(long producerId);

    /** {@code Admin.abortTransaction} of exactly this producer id and epoch on its partition. */
    Answer<Aborted> abort(OpenTransaction transaction);

    /** A transaction open on {@code partition} since {@code firstOffset}, by {@code producer}. */
    record OpenTransaction(TopicPartition partition, ProducerEpoch producer, long firstOffset) {
    }

    /** What an abort found. */
    enum Aborted { ABORTED, NOTHING_OPEN }

    /** An admin call's answer. */
    sealed interface Answer<T> {
        record Known<T>(T value) implements Answer<T> {
        }

        /** Failed or timed out; nothing is known. */
        record Unknown<T>(Throwable cause) implements Answer<T> {
        }
    }
}
