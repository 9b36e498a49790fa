package dev.quarantine.connect.sink.write;

import static dev.quarantine.connect.sink.TestData.sinkRecord;
import static dev.quarantine.sandbox.Utf8.bytes;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.converters.ByteArrayConverter;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.storage.SimpleHeaderConverter;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.BytesOrStringHeaderConverter;
import dev.quarantine.connect.sink.TestData;
import dev.quarantine.connect.sink.config.TopicFormat;

class RecordConverterTest {

    @Test
    void writesBytesAsTheyArrivedWithPartitionTimestampAndHeaders() {
        RecordConverter converter = byteArray("copy.${topic}");
        ProducerRecord<byte[], byte[]> record = converter.convert(sinkRecord("orders", 3, 7, "k", bytes("v"), 99L), new HashMap<>());

        assertThat(record.topic()).isEqualTo("copy.orders");
        assertThat(record.partition()).isEqualTo(3);
        assertThat(record.timestamp()).isEqualTo(99L);
        assertThat(text(record.key())).isEqualTo("k");
        assertThat(text(record.value())).isEqualTo("v");
        assertThat(text(record.headers().lastHeader("id").value())).isEqualTo("7");
    }

    @Test
    void keepsTombstonesNullKeysAndMissingTimestamps() {
        ProducerRecord<byte[], byte[]> record = byteArray("${topic}")
                .convert(sinkRecord("orders", 0, 1, null, null, null), new HashMap<>());

        assertThat(record.key()).isNull();
        assertThat(record.value()).isNull();
        assertThat(record.timestamp()).isNull();
    }

    @Test
    void reserializesOtherConvertersDataWithTheTargetConverters() {
        JsonConverter json = new JsonConverter();
        json.configure(Map.of("schemas.enable", "false"), false);
        SimpleHeaderConverter headers = new SimpleHeaderConverter();
        RecordConverter converter = new RecordConverter(new TopicFormat("${topic}"), TestData.targetTopicsNeverSeen(),
                byteArrayConverter(true), json, headers);
        Schema schema = SchemaBuilder.struct().field("id", Schema.INT32_SCHEMA).build();
        ConnectHeaders connectHeaders = new ConnectHeaders();
        connectHeaders.addString("source", "erp");
        SinkRecord record = new SinkRecord("orders", 0, null, null, schema, new Struct(schema).put("id", 5), 1L, 10L,
                TimestampType.CREATE_TIME, connectHeaders);

        ProducerRecord<byte[], byte[]> converted = converter.convert(record, new HashMap<>());

        assertThat(text(converted.value())).isEqualTo("{\"id\":5}");
        assertThat(text(converted.headers().lastHeader("source").value())).isEqualTo("erp");
    }

    @Test
    void reportsAConversionFailureAsARecordErrorNamingTheTargetTopic() {
        Schema schema = SchemaBuilder.struct().field("id", Schema.INT32_SCHEMA).build();
        SinkRecord record = new SinkRecord("orders", 0, null, null, schema, new Struct(schema).put("id", 5), 1L);

        assertThatThrownBy(() -> byteArray("copy.${topic}").convert(record, new HashMap<>()))
                .isInstanceOf(SerializationException.class).hasMessageContaining("copy.orders")
                .hasCauseInstanceOf(org.apache.kafka.connect.errors.DataException.class);
    }

    @Test
    void writesHeadersThatArrivedAsBytesUnchangedAndHeadersAddedByTransformsAsStrings() {
        SinkRecord record = sinkRecord("orders", 0, 4, "k", bytes("v"), 1L);
        record.headers().addString("via", "quarantine");
        RecordConverter converter = new RecordConverter(new TopicFormat("${topic}"), TestData.targetTopicsNeverSeen(),
                byteArrayConverter(true), byteArrayConverter(false), new BytesOrStringHeaderConverter());

        ProducerRecord<byte[], byte[]> converted = converter.convert(record, new HashMap<>());

        assertThat(text(converted.headers().lastHeader("id").value())).isEqualTo("4");
        assertThat(text(converted.headers().lastHeader("via").value())).isEqualTo("quarantine");
    }

    private static RecordConverter byteArray(String format) {
        return new RecordConverter(new TopicFormat(format), TestData.targetTopicsNeverSeen(), byteArrayConverter(true),
                byteArrayConverter(false), new ByteArrayConverter());
    }

    private static ByteArrayConverter byteArrayConverter(boolean isKey) {
        ByteArrayConverter converter = new ByteArrayConverter();
        converter.configure(Map.of(), isKey);
        return converter;
    }
}
