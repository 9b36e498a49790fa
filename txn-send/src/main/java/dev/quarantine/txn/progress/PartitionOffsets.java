package dev.quarantine.txn.progress;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TimeoutException;

/** Offsets of partitions listed through an admin client ({@code ListOffsets}), with Kafka's own exceptions. */
public final class PartitionOffsets {

    private PartitionOffsets() {
    }

    /**
     * The offset {@code spec} names in each of {@code partitions} as {@code isolation} sees it: with
     * {@link OffsetSpec#latest()} the high watermark (read_uncommitted) or the last stable offset (read_committed).
     *
     * @throws TimeoutException   (retriable) when the answer does not come within {@code timeout}
     * @throws KafkaException     the cluster's refusal (an ACL, an unknown partition) as Kafka's exception
     * @throws InterruptException when interrupted
     */
    public static Map<TopicPartition, Long> list(Admin admin, Collection<TopicPartition> partitions, OffsetSpec spec,
                                                 IsolationLevel isolation, Duration timeout) {
        Map<TopicPartition, OffsetSpec> specs = partitions.stream()
                .collect(Collectors.toMap(Function.identity(), p -> spec));
        try {
            return admin.listOffsets(specs, new ListOffsetsOptions(isolation)).all()
                    .get(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS).entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException("Interrupted while listing the offsets of " + partitions, e);
        } catch (java.util.concurrent.TimeoutException e) { // the future's, not Kafka's
            throw new TimeoutException("Could not list the offsets of " + partitions + " within "
                    + timeout.toMillis() + " ms", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof KafkaException cause) {
                throw cause;
            }
            throw new KafkaException("Could not list the offsets of " + partitions, e.getCause());
        }
    }
}
