package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TopicCountsTest {

    @Test
    void countsPerTopicUpToTheLimitAndTheRestUnderOtherTopics() {
        TopicCounts counts = new TopicCounts();
        for (int i = 0; i < TopicCounts.MAX_TOPICS + 500; i++) {
            counts.add("t" + i);
        }
        counts.add("t0");

        assertThat(counts.asMap()).hasSize(TopicCounts.MAX_TOPICS + 1);
        assertThat(counts.asMap()).containsEntry("t0", 2L).containsEntry(TopicCounts.OTHER_TOPICS, 500L);
    }

    @Test
    void aTopicCountedBeforeTheLimitKeepsItsOwnCount() {
        TopicCounts counts = new TopicCounts();
        counts.add("orders");
        for (int i = 0; i < TopicCounts.MAX_TOPICS; i++) {
            counts.add("t" + i);
        }
        counts.add("orders");

        assertThat(counts.asMap()).containsEntry("orders", 2L);
    }
}
