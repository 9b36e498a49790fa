package dev.quarantine.connect.sink.progress;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProgressTopicTest {

    @Test
    void refusesAProgressTopicWithOnePartitionNamingTheCommandThatAddsOne() {
        assertThat(ProgressTopic.partitionProblem("copy.progress", 1)).contains("names the progress topic"
                + " copy.progress, which has 1 partition; the connector needs 2 (partition 0 for the progress,"
                + " partition 1 for the claims of source partitions by tasks). Add one with kafka-topics.sh --alter"
                + " --topic copy.progress --partitions 2 (the progress on partition 0 stays), or name another topic");
    }

    @Test
    void takesAProgressTopicWithTwoPartitionsOrMore() {
        assertThat(ProgressTopic.partitionProblem("copy.progress", 2)).isEmpty();
        assertThat(ProgressTopic.partitionProblem("copy.progress", 3)).isEmpty();
    }
}
