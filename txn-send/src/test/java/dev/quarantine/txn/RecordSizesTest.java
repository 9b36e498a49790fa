package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;

import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.internal.AbstractRecords;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Our size formulas against Kafka's own (internal) record code, which this library must not depend on. */
class RecordSizesTest {

    record Shape(String name, byte[] key, byte[] value, Header[] headers) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Shape> shapes() {
        Header[] headers = {new RecordHeader("h1", "v".getBytes(StandardCharsets.UTF_8)),
                new RecordHeader("ünïcode", null), new RecordHeader("big", new byte[300])};
        return Stream.of(
                new Shape("null key and value", null, null, new Header[0]),
                new Shape("small", bytes(3), bytes(10), new Header[0]),
                new Shape("varint edges", bytes(63), bytes(64), new Header[0]),
                new Shape("1 KiB with headers", bytes(16), bytes(1024), headers),
                new Shape("1 MiB", bytes(100), bytes(1 << 20), headers),
                new Shape("16 KiB minus one", null, bytes(16383), new Header[0]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void producerEstimateMatchesKafkasUpperBound(Shape shape) {
        assertThat(RecordSizes.producerEstimate(shape.key(), shape.value(), shape.headers()))
                .isEqualTo(AbstractRecords.estimateSizeInBytesUpperBound(RecordBatch.CURRENT_MAGIC_VALUE,
                        CompressionType.NONE, shape.key(), shape.value(), shape.headers()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void singleRecordBatchMatchesTheBatchKafkaWrites(Shape shape) {
        MemoryRecords batch = MemoryRecords.withRecords(Compression.NONE,
                new SimpleRecord(System.currentTimeMillis(), shape.key(), shape.value(), shape.headers()));
        assertThat(RecordSizes.singleRecordBatch(shape.key(), shape.value(), shape.headers()))
                .isEqualTo(batch.sizeInBytes());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void upperBoundIsNeverBelowTheProducersEstimate(Shape shape) {
        int exact = RecordSizes.producerEstimate(shape.key(), shape.value(), shape.headers());
        assertThat(RecordSizes.upperBound(shape.key(), shape.value(), Arrays.asList(shape.headers())))
                .isGreaterThanOrEqualTo(exact).isLessThanOrEqualTo(exact + 100);
    }

    private static byte[] bytes(int n) {
        return new byte[n];
    }
}
