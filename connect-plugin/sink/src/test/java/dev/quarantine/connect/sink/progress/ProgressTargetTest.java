package dev.quarantine.connect.sink.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

class ProgressTargetTest {

    private static final List<TopicPartition> SOURCES = List.of(new TopicPartition("orders", 3));
    private final ProgressTarget target = new ProgressTarget("sink.progress.internal");

    @Test
    void writesToPartitionZeroWithTheTopicIdFirstLearnt() {
        Uuid first = Uuid.randomUuid();
        target.learn(first, SOURCES);
        target.learn(first, SOURCES);

        var record = target.record("sink.orders-3", SOURCES.get(0), 1043, 1043);

        assertThat(record.topic()).isEqualTo("sink.progress.internal");
        assertThat(record.partition()).isZero();
        assertThat(ProgressRecord.parse(record.value())).isEqualTo(new ProgressRecord(1043, first));
    }

    @Test
    void failsNamingTheTopicWhenItHasAnotherIdThanWhenTheTaskStarted() {
        target.learn(Uuid.randomUuid(), SOURCES);

        assertThatThrownBy(() -> target.learn(Uuid.randomUuid(), SOURCES)).isInstanceOf(ConnectException.class)
                .hasMessageStartingWith("The progress topic sink.progress.internal was deleted and created again")
                .hasMessageContaining("[orders-3]");
    }

    @Test
    void failsEveryWritersNextProgressRecordOnceTheTopicWasFoundWithAnotherId() {
        Uuid first = Uuid.randomUuid();
        target.learn(first, SOURCES);

        assertThat(target.replacedBy(first)).isFalse();
        target.record("sink.orders-3", SOURCES.get(0), 0, 1);
        assertThat(target.replacedBy(Uuid.randomUuid())).isTrue();
        assertThat(target.replacedBy(first)).as("remembered").isTrue();
        assertThatThrownBy(() -> target.record("sink.orders-3", SOURCES.get(0), 1, 2))
                .isInstanceOf(ConnectException.class)
                .hasMessageStartingWith("The progress topic sink.progress.internal was deleted and created again")
                .hasMessageContaining("[orders-3]");
    }

    @Test
    void leavesATopicAloneUntilItsIdIsLearnt() {
        assertThat(target.replacedBy(Uuid.randomUuid())).isFalse();
    }

    @Test
    void refusesToWriteProgressBeforeItWasRead() {
        assertThatThrownBy(() -> target.record("sink.orders-3", SOURCES.get(0), 0, 1))
                .isInstanceOf(IllegalStateException.class);
    }
}
