package dev.quarantine.connect.sink.progress;

import static dev.quarantine.sandbox.Utf8.bytes;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;


import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** The completion record: its key, its lines, what it names, and what a reader refuses. */
class CommitCompletionTest {

    private static final CommitCompletion C = new CommitCompletion(7000, (short) 4);

    @Test
    void isKeyedByTheIdWithASuffixNoTransactionalIdHasForPartitionZeroWithReadableLines() {
        ProducerRecord<byte[], byte[]> record = C.toRecord("sink.progress.internal", "sink:orders-3");

        assertThat(record.topic()).isEqualTo("sink.progress.internal");
        assertThat(record.partition()).isZero();
        assertThat(text(record.key())).isEqualTo("sink:orders-3/completed");
        assertThat(text(record.value())).isEqualTo("format=1\nproducer.epoch=4\nproducer.id=7000\n");
        assertThat(CommitCompletion.parse(record.value())).isEqualTo(C);
    }

    @Test
    void isClearedByATombstoneUnderTheSameKey() {
        ProducerRecord<byte[], byte[]> tombstone = CommitCompletion.tombstone("p", "sink:orders-3");

        assertThat(tombstone.key()).isEqualTo(C.toRecord("p", "sink:orders-3").key());
        assertThat(tombstone.value()).isNull();
        assertThat(tombstone.partition()).isZero();
    }

    @Test
    void tellsACompletionsKeyFromAProgressKey() {
        assertThat(CommitCompletion.idOf("sink:orders-3/completed")).contains("sink:orders-3");
        assertThat(CommitCompletion.idOf("sink:orders-3")).isEmpty();
    }

    @Test
    void refusesAnotherFormatOrMissingLines() {
        assertThatThrownBy(() -> CommitCompletion.parse(bytes("format=2\nproducer.epoch=4\nproducer.id=7000\n")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("format 2");
        assertThatThrownBy(() -> CommitCompletion.parse(bytes("format=1\nproducer.id=7000\n")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("producer.epoch");
        assertThatThrownBy(() -> CommitCompletion.parse(bytes("format=1\nproducer.epoch=x\nproducer.id=7000\n")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
