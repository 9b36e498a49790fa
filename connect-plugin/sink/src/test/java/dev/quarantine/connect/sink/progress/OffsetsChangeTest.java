package dev.quarantine.connect.sink.progress;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.write.WriterFactory;

/** Row by row: what a call of Connect's offsets API asks of the sink's progress, and the progress keys it reads. */
class OffsetsChangeTest {

    private static final TopicPartition A0 = new TopicPartition("a", 0);
    private static final TopicPartition A1 = new TopicPartition("a", 1);

    @Test
    void anOffsetGivenAltersThePartitionsGiven() {
        assertThat(OffsetsChange.of(Map.of(A0, 5L), Set.of(A0))).isEqualTo(OffsetsChange.ALTER);
        assertThat(OffsetsChange.of(offsets(A0, 5L, A1, null), Set.of(A0, A1))).isEqualTo(OffsetsChange.ALTER);
    }

    @Test
    void resetsOfExactlyTheGroupsPartitionsResetTheWholeConnector() {
        assertThat(OffsetsChange.of(offsets(A0, null, A1, null), Set.of(A0, A1))).isEqualTo(OffsetsChange.RESET_ALL);
        assertThat(OffsetsChange.of(Map.of(), Set.of())).as("a DELETE when the group has no offsets")
                .isEqualTo(OffsetsChange.RESET_ALL);
    }

    @Test
    void resetsOfOtherPartitionsThanTheGroupsResetOnlyThose() {
        assertThat(OffsetsChange.of(offsets(A0, null, null, null), Set.of(A0, A1))).isEqualTo(OffsetsChange.ALTER);
        assertThat(OffsetsChange.of(offsets(A1, null, null, null), Set.of())).isEqualTo(OffsetsChange.ALTER);
    }

    @Test
    void findsThePartitionOfAProgressKeyUnderItsPrefixOnly() {
        assertThat(WriterFactory.sourceOf("x", "x:orders-3")).contains(new TopicPartition("orders", 3));
        assertThat(WriterFactory.sourceOf("x", "x:my-topic-12")).contains(new TopicPartition("my-topic", 12));
        assertThat(WriterFactory.sourceOf("x", WriterFactory.transactionalId("x", A1))).contains(A1);
        assertThat(WriterFactory.sourceOf("x", "x.y:orders-3")).as("another prefix").isEmpty();
        assertThat(WriterFactory.sourceOf("x", "x:y:orders-3")).as("prefix x:y").isEmpty();
        assertThat(WriterFactory.sourceOf("x", "x:orders-3" + CommitCompletion.KEY_SUFFIX))
                .as("a completion tombstone").isEqualTo(Optional.empty());
        assertThat(WriterFactory.sourceOf("x", "x:orders")).isEmpty();
        assertThat(WriterFactory.sourceOf("x", "x:-3")).isEmpty();
    }

    private static Map<TopicPartition, Long> offsets(TopicPartition first, Long firstOffset, TopicPartition second,
                                                     Long secondOffset) {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        offsets.put(first, firstOffset);
        if (second != null) {
            offsets.put(second, secondOffset);
        }
        return offsets;
    }
}
