package dev.quarantine.connect.sink.write;

import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Map;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

/** The table of {@link PayloadFallback}, row by row. */
class PayloadFallbackTest {

    @Test
    void nullStaysNull() {
        assertThat(PayloadFallback.encode(null, null)).isEqualTo(new PayloadFallback.Encoded(null, "null"));
    }

    @Test
    void bytesStayAsTheyAre() {
        byte[] bytes = {1, 2, 3};
        assertThat(PayloadFallback.encode(Schema.BYTES_SCHEMA, bytes).bytes()).isEqualTo(bytes);
        assertThat(PayloadFallback.encode(Schema.BYTES_SCHEMA, ByteBuffer.wrap(bytes)))
                .satisfies(e -> assertThat(e.bytes()).isEqualTo(bytes))
                .satisfies(e -> assertThat(e.encoding()).isEqualTo("bytes"));
    }

    @Test
    void aStringIsUtf8() {
        PayloadFallback.Encoded encoded = PayloadFallback.encode(Schema.STRING_SCHEMA, "grüße");
        assertThat(text(encoded.bytes())).isEqualTo("grüße");
        assertThat(encoded.encoding()).isEqualTo("string");
    }

    @Test
    void structuredDataIsConnectsStringForm() {
        Schema schema = SchemaBuilder.struct().field("id", Schema.INT32_SCHEMA).build();
        PayloadFallback.Encoded struct = PayloadFallback.encode(schema, new Struct(schema).put("id", 5));
        PayloadFallback.Encoded map = PayloadFallback.encode(null, Map.of("id", 5));

        assertThat(text(struct.bytes())).contains("5");
        assertThat(struct.encoding()).isEqualTo("connect-values");
        assertThat(text(map.bytes())).isEqualTo("{\"id\":5}");
        assertThat(map.encoding()).isEqualTo("connect-values");
    }
}
