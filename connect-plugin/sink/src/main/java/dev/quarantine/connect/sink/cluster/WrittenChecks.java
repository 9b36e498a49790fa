package dev.quarantine.connect.sink.cluster;

import java.time.Duration;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.cluster.WrittenCheck.Verdict;
import dev.quarantine.connect.sink.progress.ProgressRecord;

/**
 * Rule V as the running sink asks it (docs/design/sink-ownership.md 2.7.1): {@link WrittenRepair} on the target
 * cluster; tests whose scripted producers write nothing to a broker give one of their own.
 */
public interface WrittenChecks extends AutoCloseable {

    /** See {@link WrittenRepair#check}. */
    Map<TopicPartition, Verdict> check(Map<TopicPartition, ProgressRecord> progress);

    /** See {@link WrittenRepair#stillVisible}. */
    boolean stillVisible(Map<TopicPartition, ProgressRecord> progress, Duration bound);

    @Override
    void close();
}
