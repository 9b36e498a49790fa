package dev.quarantine.connect.sink.write;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Values;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The bytes a dead letter carries when the target converters failed on a record, so the original stays usable:
 *
 * <table>
 * <caption>Fallback encoding of a key, value or header the converters could not convert</caption>
 * <tr><th>data</th><th>bytes</th><th>encoding</th></tr>
 * <tr><td>null</td><td>null</td><td>{@code null}</td></tr>
 * <tr><td>byte[], ByteBuffer</td><td>as they are</td><td>{@code bytes}</td></tr>
 * <tr><td>String</td><td>UTF-8</td><td>{@code string}</td></tr>
 * <tr><td>anything else (Struct, Map, List, numbers, ...)</td><td>UTF-8 of Connect's
 *     {@code Values.convertToString(schema, value)}</td><td>{@code connect-values}</td></tr>
 * </table>
 *
 * <p>The encodings of key and value go in the dead letter's {@code __quarantine.key.encoding} and
 * {@code __quarantine.value.encoding} headers; headers are encoded the same way.
 */
final class PayloadFallback {

    static final String NULL = "null";
    static final String BYTES = "bytes";
    static final String STRING = "string";
    static final String CONNECT_VALUES = "connect-values";

    /** Encoded data and the name of its encoding. */
    record Encoded(byte[] bytes, String encoding) {
    }

    private PayloadFallback() {
    }

    static Encoded encode(Schema schema, Object data) {
        if (data == null) {
            return new Encoded(null, NULL);
        }
        if (data instanceof byte[] bytes) {
            return new Encoded(bytes, BYTES);
        }
        if (data instanceof ByteBuffer buffer) {
            ByteBuffer copy = buffer.duplicate();
            byte[] bytes = new byte[copy.remaining()];
            copy.get(bytes);
            return new Encoded(bytes, BYTES);
        }
        if (data instanceof String text) {
            return new Encoded(text.getBytes(StandardCharsets.UTF_8), STRING);
        }
        return new Encoded(Values.convertToString(schema, data).getBytes(StandardCharsets.UTF_8), CONNECT_VALUES);
    }

    static Header[] headers(SinkRecord record) {
        List<Header> headers = new ArrayList<>();
        for (org.apache.kafka.connect.header.Header header : record.headers()) {
            headers.add(new RecordHeader(header.key(), encode(header.schema(), header.value()).bytes()));
        }
        return headers.toArray(new Header[0]);
    }
}
