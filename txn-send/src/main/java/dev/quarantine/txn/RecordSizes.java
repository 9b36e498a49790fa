package dev.quarantine.txn;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.Header;

/**
 * Sizes of a record in Kafka's v2 record format, computed here so this library does not depend on Kafka's
 * internal record classes. Both formulas are checked in tests against what the producer and the broker accept.
 */
final class RecordSizes {

    /** Size of a v2 record batch header (base offset ... records count). */
    static final int BATCH_OVERHEAD = 61;
    /** The producer's allowance for a record's length, attributes, timestamp delta and offset delta varints. */
    private static final int MAX_RECORD_OVERHEAD = 21;

    private RecordSizes() {
    }

    /**
     * The size the producer checks against {@code max.request.size} and {@code buffer.memory}: an upper bound of a
     * batch holding only this record.
     */
    static int producerEstimate(byte[] key, byte[] value, Header[] headers) {
        return BATCH_OVERHEAD + MAX_RECORD_OVERHEAD + keyValueHeadersSize(key, value, headers);
    }

    /**
     * The exact size of a batch holding only this record, uncompressed: what the broker checks against the topic's
     * {@code max.message.bytes} when the record travels alone.
     */
    static int singleRecordBatch(byte[] key, byte[] value, Header[] headers) {
        int body = 1 /* attributes */ + 1 /* timestamp delta 0 */ + 1 /* offset delta 0 */
                + keyValueHeadersSize(key, value, headers);
        return BATCH_OVERHEAD + varintSize(body) + body;
    }

    /** Bytes taken by the key, value and headers fields of a v2 record, with their length prefixes. */
    static int keyValueHeadersSize(byte[] key, byte[] value, Header[] headers) {
        int size = bytesField(key) + bytesField(value) + varintSize(headers.length);
        for (Header header : headers) {
            if (header.key() == null) {
                throw new IllegalArgumentException("Invalid null header key found in headers");
            }
            int keyLength = header.key().getBytes(StandardCharsets.UTF_8).length;
            size += varintSize(keyLength) + keyLength + bytesField(header.value());
        }
        return size;
    }

    private static int bytesField(byte[] bytes) {
        return bytes == null ? 1 : varintSize(bytes.length) + bytes.length;
    }

    /** Length of a zig-zag varint, as Kafka writes record lengths. */
    static int varintSize(int value) {
        int zigzag = (value << 1) ^ (value >> 31);
        int bytes = 1;
        while ((zigzag & 0xffffff80) != 0) {
            bytes++;
            zigzag >>>= 7;
        }
        return bytes;
    }
}
