package dev.quarantine.connect.sink.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeProducersResult;
import org.apache.kafka.clients.admin.DescribeProducersResult.PartitionProducerState;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producers of every partition of many topics, described at once for the partitions opened together
 * ({@link HangingTransactions#lookForCommitsLeftOpen}), each topic's and partition's answer taken on its own:
 *
 * <table>
 * <caption>An answer, for one topic or partition</caption>
 * <tr><th>answer</th><th>then</th></tr>
 * <tr><td>described</td><td>its producers count</td></tr>
 * <tr><td>UnknownTopicOrPartitionException (the topic does not exist, or was deleted since it was described)</td>
 *     <td>it holds no transaction</td></tr>
 * <tr><td>any other failure, or no answer within the timeout</td><td>the topic is left out of the look: an id
 *     writing it describes its own topics again when it opens (its failure is that id's), the others go on</td></tr>
 * </table>
 */
final class ProducersLook {

    private static final Logger log = LoggerFactory.getLogger(ProducersLook.class);

    private ProducersLook() {
    }

    /** Describes the producers of the partitions of {@code topics}, within {@code timeout} for all. */
    static CommitLeftOpen.Described describe(Admin admin, Collection<String> topics, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Set<String> described = new TreeSet<>(topics);
        Map<String, String> leftOut = new TreeMap<>();
        List<TopicPartition> partitions = new ArrayList<>();
        admin.describeTopics(topics).topicNameValues().forEach((topic, answer) -> {
            try {
                answer(answer, deadline).partitions().forEach(p -> partitions.add(new TopicPartition(topic,
                        p.partition())));
            } catch (UnknownTopicOrPartitionException e) {
                // holds no transaction
            } catch (RuntimeException e) {
                described.remove(topic);
                leftOut.putIfAbsent(topic, e.toString());
            }
        });
        Map<TopicPartition, PartitionProducerState> states = new HashMap<>();
        if (!partitions.isEmpty()) {
            DescribeProducersResult result = admin.describeProducers(partitions);
            for (TopicPartition partition : partitions) {
                try {
                    states.put(partition, answer(result.partitionResult(partition), deadline));
                } catch (UnknownTopicOrPartitionException e) {
                    // deleted since it was described: holds no transaction
                } catch (RuntimeException e) {
                    described.remove(partition.topic());
                    leftOut.putIfAbsent(partition.topic(), partition + ": " + e);
                }
            }
        }
        states.keySet().removeIf(partition -> !described.contains(partition.topic()));
        if (!leftOut.isEmpty()) {
            log.info("Could not describe the producers of {} together with the other partitions opened ({}); each"
                    + " partition writing there looks again when it opens", leftOut.keySet(), leftOut.values());
        }
        return new CommitLeftOpen.Described(described, states);
    }

    /** The answer, or its failure as an unchecked exception (a RetriableException when there was none in time). */
    private static <T> T answer(KafkaFuture<T> future, long deadline) {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : new ConnectException(e.getCause());
        } catch (TimeoutException e) {
            throw new RetriableException("No answer in time", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while describing the producers of the partitions opened", e);
        }
    }
}
