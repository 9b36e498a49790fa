package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

class RecordSerializerTest {

    private static final class Counting implements Serializer<String> {
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public byte[] serialize(String topic, String data) {
            calls.incrementAndGet();
            return data == null ? null : data.getBytes(StandardCharsets.UTF_8);
        }
    }

    @Test
    void theProducerGetsTheBytesOfTheChecksInsteadOfSerializingAgain() {
        Counting keys = new Counting();
        Counting values = new Counting();
        RecordSerializer<String, String> serializer = RecordSerializer.reusing(Map.of(), keys, values);
        Serializer<String> producerKeys = serializer.keyForProducer();
        Serializer<String> producerValues = serializer.valueForProducer();
        ProducerRecord<String, String> record = new ProducerRecord<>("t", "k", "v");

        RecordSerializer.Serialized bytes = serializer.serialize(record);
        byte[] keyAgain = producerKeys.serialize("t", record.headers(), record.key());
        byte[] valueAgain = producerValues.serialize("t", record.headers(), record.value());

        assertThat(keyAgain).isSameAs(bytes.key());
        assertThat(valueAgain).isSameAs(bytes.value());
        assertThat(keys.calls).hasValue(1);
        assertThat(values.calls).hasValue(1);
        assertThat(producerValues.serialize("t", record.headers(), new String("v"))).as("another object")
                .isEqualTo("v".getBytes(StandardCharsets.UTF_8));
        assertThat(values.calls).hasValue(2);
    }

    @Test
    void forgetsKeptBytesSoALaterSendSerializesAfresh() {
        Counting values = new Counting();
        RecordSerializer<String, String> serializer = RecordSerializer.reusing(Map.of(), new Counting(), values);
        ProducerRecord<String, String> record = new ProducerRecord<>("t", "k", "v");

        serializer.serialize(record);
        serializer.forget();
        serializer.valueForProducer().serialize("t", record.headers(), record.value());

        assertThat(values.calls).hasValue(2);
    }

    @Test
    void givesTheProducerKafkasByteArraySerializersThemselvesSinceThereIsNothingToHandOver() {
        ByteArraySerializer keys = new ByteArraySerializer();
        ByteArraySerializer values = new ByteArraySerializer();
        RecordSerializer<byte[], byte[]> serializer = RecordSerializer.reusing(Map.of(), keys, values);
        byte[] value = {1, 2, 3};

        RecordSerializer.Serialized bytes = serializer.serialize(new ProducerRecord<>("t", null, value));

        assertThat(serializer.keyForProducer()).isSameAs(keys);
        assertThat(serializer.valueForProducer()).isSameAs(values);
        assertThat(bytes.value()).isSameAs(value);
    }

    @Test
    void reportsAValueOfTheWrongTypeAsASerializationErrorNamingTheSetting() {
        @SuppressWarnings({"unchecked", "rawtypes"})
        RecordSerializer<String, String> serializer = RecordSerializer.reusing(Map.of(), new Counting(),
                (Serializer) new Counting());
        @SuppressWarnings({"unchecked", "rawtypes"})
        ProducerRecord<String, String> wrong = (ProducerRecord) new ProducerRecord<>("t", "k", 42);

        assertThatThrownBy(() -> serializer.serialize(wrong)).isInstanceOf(SerializationException.class)
                .hasMessageContaining("java.lang.Integer").hasMessageContaining("value.serializer");
    }
}
