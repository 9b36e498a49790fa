package dev.quarantine.connect.sink;

import java.nio.ByteBuffer;
import java.util.Map;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.storage.HeaderConverter;
import org.apache.kafka.connect.storage.SimpleHeaderConverter;

/**
 * The default {@code target.header.converter}: a header that arrived as bytes (the worker's or connector's
 * {@code header.converter} is ByteArrayConverter) is written as those bytes, unchanged; any other header (one added
 * by an SMT such as InsertHeader, or parsed by SimpleHeaderConverter) is written as Connect's
 * {@link SimpleHeaderConverter} writes it (a string as UTF-8, other values in its text form).
 */
public class BytesOrStringHeaderConverter implements HeaderConverter {

    private final SimpleHeaderConverter simple = new SimpleHeaderConverter();

    @Override
    public void configure(Map<String, ?> configs) {
        simple.configure(configs);
    }

    @Override
    public SchemaAndValue toConnectHeader(String topic, String headerKey, byte[] value) {
        return new SchemaAndValue(Schema.OPTIONAL_BYTES_SCHEMA, value);
    }

    @Override
    public byte[] fromConnectHeader(String topic, String headerKey, Schema schema, Object value) {
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        if (value instanceof ByteBuffer buffer) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.duplicate().get(bytes);
            return bytes;
        }
        return simple.fromConnectHeader(topic, headerKey, schema, value);
    }

    @Override
    public ConfigDef config() {
        return new ConfigDef();
    }

    @Override
    public void close() {
        // SimpleHeaderConverter holds nothing to release
    }
}
