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
    /** The longest varint of an int length. */
    private static final int MAX_VARINT = 5;
    /** The most bytes UTF-8 takes for one Java char (a surrogate pair takes 4 for two chars). */
    private static final int MAX_UTF8_PER_CHAR = 3;

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
     * A cheap bound that is never below {@link #producerEstimate} (nor, so, below {@link #singleRecordBatch}): every
     * length prefix counted at its longest and header keys at 3 bytes a char, with no encoding and no allocation.
     * When it is within a limit, so are the exact sizes; only a record near a limit needs them. Takes the headers as
     * they are, not as an array (the producer makes its own array of them). A header with a null key gets
     * {@link Integer#MAX_VALUE}, so the exact sizing reports it.
     */
    static int upperBound(byte[] key, byte[] value, Iterable<Header> headers) {
        long size = BATCH_OVERHEAD + MAX_RECORD_OVERHEAD + 3 * MAX_VARINT + length(key) + length(value);
        for (Header header : headers) {
            String headerKey = header.key();
            if (headerKey == null) {
                return Integer.MAX_VALUE;
            }
            size += 2 * MAX_VARINT + (long) MAX_UTF8_PER_CHAR * headerKey.length() + length(header.value());
        }
        return (int) Math.min(size, Integer.MAX_VALUE);
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

    private static int length(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
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
