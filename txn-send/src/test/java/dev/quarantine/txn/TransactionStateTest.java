package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** When IGNORE_SEND_ERRORS may be used, row by row, and what the refusal names. */
class TransactionStateTest {

    private static final Consumer<TransactionState> BEGIN = TransactionState::begun;
    private static final Consumer<TransactionState> END = TransactionState::ended;
    private static final Consumer<TransactionState> CLOSE = TransactionState::closed;

    /** {@code refusal} is empty when the send may go ahead, else a part of the refusal's message. */
    record Row(String name, boolean transactional, List<Consumer<TransactionState>> steps, String refusal) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Row> rows() {
        return Stream.of(
                new Row("within a transaction", true, List.of(BEGIN), ""),
                new Row("within the second transaction", true, List.of(BEGIN, END, BEGIN), ""),
                new Row("before the first transaction", true, List.of(), "call beginTransaction() before sending"),
                new Row("between transactions", true, List.of(BEGIN, END), "needs a transaction in progress"),
                new Row("without transactional.id", false, List.of(BEGIN), "set transactional.id, or send with"
                        + " TxnSendOption.NONE"),
                new Row("after close, within a transaction", true, List.of(BEGIN, CLOSE),
                        "Cannot send after the producer has been closed"),
                new Row("after close, without transactional.id", false, List.of(CLOSE),
                        "Cannot send after the producer has been closed"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void decides(Row row) {
        TransactionState state = new TransactionState(row.transactional());
        row.steps().forEach(step -> step.accept(state));

        if (row.refusal().isEmpty()) {
            assertThatCode(state::requireInProgress).doesNotThrowAnyException();
        } else {
            assertThatThrownBy(state::requireInProgress).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(row.refusal());
        }
    }
}
