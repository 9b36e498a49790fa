package dev.quarantine.connect.rest.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;

import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class CodecTest {

    @Test
    void readsFiguresWrittenWithWriteUtfByEarlierReleasesFromTheChangelog() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(Codec.VERSION_WRITE_UTF);
            out.writeLong(2); // total
            out.writeLong(1_000);
            out.writeLong(2_000);
            out.writeInt(1);
            out.writeUTF("orders");
            out.writeLong(2);
            out.writeInt(0);
            out.writeInt(1);
            out.writeUTF("E");
            out.writeLong(2);
        }

        TopicStats stats = Codec.decode(bytes.toByteArray(), TopicStats::read);

        assertThat(stats.total()).isEqualTo(2);
        assertThat(stats.byOriginalTopic()).containsEntry("orders", 2L);
        assertThat(stats.byErrorClass()).containsEntry("E", 2L);
    }

    @Test
    void keepsStringsLongerThan64Kb() {
        String big = "é".repeat(70_000);
        DeadLetterRecord record = new DeadLetterRecord("dlq", 0, 1, 2, "none", big, big, big, null, null, null, null,
                null, -1, -1, null, null, null);

        DeadLetterRecord copy = Codec.decode(Codec.encode(record, DeadLetterRecord::write), DeadLetterRecord::read);

        assertThat(copy.errorClass()).isEqualTo(big);
        assertThat(copy.errorMessage()).isEqualTo(big);
    }

    @Test
    void refusesAMalformedValueWithoutAHugeAllocation() {
        byte[] lying = {Codec.VERSION, 0x7f, 0x7f, 0x7f, 0x7f};

        assertThatThrownBy(() -> Codec.decode(lying, in -> in.readString())).isInstanceOf(SerializationException.class);
        assertThatThrownBy(() -> Codec.decode(new byte[] {9}, in -> in.readString()))
                .isInstanceOf(SerializationException.class).hasMessageContaining("version 9");
    }
}
