package dev.quarantine.connect.rest.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

class ChangelogMisfitTest {

    @Test
    void stopsTheRunOnAnInternalTopicOfAnotherPartitionCountAndNamesTheTopicsToDelete() {
        StreamsException met = new StreamsException(new IllegalStateException("Existing internal topic"
                + " app-x-dead-letter-stats-changelog has invalid partitions: expected: 2; actual: 3. Use"
                + " 'org.apache.kafka.tools.StreamsResetter' tool to clean up invalid topics before processing."));

        assertThat(ChangelogMisfit.of("app-x", met)).hasValueSatisfying(stop -> {
            assertThat(stop).hasMessageContaining("delete the topics named app-x-...").hasCause(met);
        });
    }

    @Test
    void leavesEveryOtherFailureToTheThreadsReplacement() {
        assertThat(ChangelogMisfit.of("app-x", new StreamsException("task failed"))).isEmpty();
        assertThat(ChangelogMisfit.of("app-x", new IllegalStateException((String) null))).isEmpty();
    }
}
