package dev.quarantine.connect.sink.cluster;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.progress.CommitCompletion;
import dev.quarantine.connect.sink.progress.RedoRange;

/**
 * Where an id's committed last transaction is left open (see {@link HangingTransactions}, "A committed transaction C
 * left open"), decided from the producers of every partition of the topics that the partitions opened together
 * write, described once for all of them ({@link Described}): each id looks only at the partitions of its own topics.
 */
final class CommitLeftOpen {

    /** The producers of every partition of {@code topics} (a topic that does not exist has none), described once. */
    record Described(Set<String> topics, Map<TopicPartition, PartitionProducerState> states) {

        Described {
            topics = Set.copyOf(topics);
            states = Map.copyOf(states);
        }

        /** Whether every one of {@code looked} was described. */
        boolean covers(Collection<String> looked) {
            return topics.containsAll(looked);
        }
    }

    private CommitLeftOpen() {
    }

    /**
     * The committed transaction an open looks for: the one a completion standing in the progress names
     * ({@code named}, see {@link CommitCompletion}: the id's progress is then that commit's), else the id's last
     * transaction when it was a commit ({@code lastCommit}). The completion wins: once it was written, the id's last
     * transaction is the completion itself or a later abort (an intent that failed), never the commit to look for.
     */
    static Optional<LastTransaction> lookedFor(Optional<LastTransaction> lastCommit, Optional<LastTransaction> named) {
        return named.isPresent() ? named : lastCommit;
    }

    /**
     * The partitions of {@code topics} among {@code described} where {@code last}, the id's committed last
     * transaction, is open; with {@code redo} (the id's progress is in one), also those of the redo's partitions where
     * any transaction of {@code last}'s producer id is open.
     */
    static Set<TopicPartition> partitions(LastTransaction last, Collection<String> topics, Optional<RedoRange> redo,
                                          Map<TopicPartition, PartitionProducerState> described) {
        Set<TopicPartition> open = new HashSet<>();
        described.forEach((partition, state) -> {
            if (!topics.contains(partition.topic())) {
                return;
            }
            boolean redone = redo.isPresent() && redo.get().partitions().contains(partition);
            if (last.foundOpenIn(state).isPresent() || redone
                    && !HangingTransactions.openOf(last.producerId(), state).isEmpty()) {
                open.add(partition);
            }
        });
        return open;
    }
}
