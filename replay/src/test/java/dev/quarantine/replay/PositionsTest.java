package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PositionsTest {

    @Test
    void parsesARangeWithBothEndsInclusive() {
        assertThat(Positions.range(" 2:100-199 ")).isEqualTo(new Positions.Range(2, 100, 199));
    }

    @Test
    void rejectsARangeThatIsMalformedOrBackwards() {
        assertThatThrownBy(() -> Positions.range("2:100")).hasMessageContaining("partition:from-to");
        assertThatThrownBy(() -> Positions.range("2:9-3")).hasMessageContaining("starts after it ends");
        assertThatThrownBy(() -> Positions.range("x:1-3")).hasMessageContaining("'x:1-3'");
    }

    @Test
    void parsesAPositionWithOrWithoutTheDeadLetterTopic() {
        assertThat(Positions.position("3@42", "orders.dlq")).isEqualTo(new Positions.Position(3, 42));
        assertThat(Positions.position("orders.dlq-3@42", "orders.dlq")).isEqualTo(new Positions.Position(3, 42));
        assertThat(Positions.position("my-dlq-0@7", "my-dlq")).isEqualTo(new Positions.Position(0, 7));
    }

    @Test
    void rejectsAPositionOfAnotherTopicOrWithoutOffset() {
        assertThatThrownBy(() -> Positions.position("other-3@42", "orders.dlq"))
                .hasMessageContaining("not a position in dead-letter topic orders.dlq");
        assertThatThrownBy(() -> Positions.position("3", "orders.dlq")).hasMessageContaining("partition@offset");
    }
}
