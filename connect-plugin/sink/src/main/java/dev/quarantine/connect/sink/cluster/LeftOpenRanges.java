package dev.quarantine.connect.sink.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.progress.ProgressRecord.Written;

/**
 * Which open ranges rule V's repair ({@link WrittenRepair}) aborts on the partitions a {@code written} line is held
 * back on: only a range its writer's producer id left open below the epoch the coordinator describes now, that holds
 * the line's {@code first} (a commit whose markers a broker skipped, docs/design/sink-ownership.md 2.7). Anything else
 * open there (a live transaction, another slot's producer on a shared partition) is left alone.
 */
final class LeftOpenRanges {

    private LeftOpenRanges() {
    }

    /** A held-back line of the writer {@code id}. */
    record Held(String id, Written line) {
    }

    /**
     * The leftover ranges among {@code states}: per partition, an open transaction of a line's writer's producer id
     * (as {@code described} now, settled: no transaction under way, whose markers may still end the range), at an
     * epoch below the described one, started at or before the line's {@code first}.
     */
    static List<AbortTransactionSpec> toAbort(Map<TopicPartition, List<Held>> held,
                                              Map<String, TransactionDescription> described,
                                              Map<TopicPartition, PartitionProducerState> states) {
        List<AbortTransactionSpec> specs = new ArrayList<>();
        held.forEach((tp, lines) -> {
            PartitionProducerState state = states.get(tp);
            if (state == null) {
                return;
            }
            for (ProducerState producer : state.activeProducers()) {
                if (producer.currentTransactionStartOffset().isEmpty()) {
                    continue;
                }
                long start = producer.currentTransactionStartOffset().getAsLong();
                boolean leftover = lines.stream().anyMatch(h -> {
                    TransactionDescription now = described.get(h.id());
                    return now != null && SettledWriters.settled(now) && now.producerId() == producer.producerId()
                            && producer.producerEpoch() < now.producerEpoch() && start <= h.line().first();
                });
                if (leftover) {
                    specs.add(new AbortTransactionSpec(tp, producer.producerId(), (short) producer.producerEpoch(),
                            producer.coordinatorEpoch().orElse(0)));
                }
            }
        });
        return specs;
    }
}
