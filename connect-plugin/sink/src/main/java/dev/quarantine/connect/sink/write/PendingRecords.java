package dev.quarantine.connect.sink.write;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;

import dev.quarantine.connect.sink.SeekingContext;

/**
 * The records of one source partition waiting for their transaction, in offset order, with their estimated size and
 * when the oldest arrived. A record at or below an offset already waiting, or below the committed progress, is
 * skipped: Connect delivers a put's batch again after a RetriableException, and a rewind delivers records again.
 * A batch that starts past where the task last sought its partition never gets here ({@link SeekingContext}).
 */
public final class PendingRecords {

    private final List<SinkRecord> records = new ArrayList<>();
    private long bytes;
    private long sinceMs;

    /** Adds the records above the last waiting one and at or above {@code nextOffset}; returns how many. */
    int add(List<SinkRecord> batch, OptionalLong nextOffset, long nowMs) {
        long floor = records.isEmpty() ? (nextOffset.isPresent() ? nextOffset.getAsLong() : Long.MIN_VALUE)
                : records.get(records.size() - 1).originalKafkaOffset() + 1;
        int added = 0;
        for (SinkRecord record : batch) {
            if (record.originalKafkaOffset() >= floor) {
                if (records.isEmpty()) {
                    sinceMs = nowMs;
                }
                records.add(record);
                bytes += estimatedBytes(record);
                floor = record.originalKafkaOffset() + 1;
                added++;
            }
        }
        return added;
    }

    /** The waiting records, a copy. */
    public List<SinkRecord> records() {
        return List.copyOf(records);
    }

    /** The waiting records from the {@code index}-th on, a copy. */
    List<SinkRecord> from(int index) {
        return List.copyOf(records.subList(index, records.size()));
    }

    public int count() {
        return records.size();
    }

    long bytes() {
        return bytes;
    }

    /** When the oldest waiting record arrived (epoch ms), empty when none waits. */
    OptionalLong sinceMs() {
        return records.isEmpty() ? OptionalLong.empty() : OptionalLong.of(sinceMs);
    }

    /** The waiting records were committed. */
    public void clear() {
        records.clear();
        bytes = 0;
    }

    /**
     * An estimate of a record's size: the lengths of byte-array (or ByteBuffer) keys, values and header values and
     * the characters of string ones; anything else (a Struct, a Map) counts nothing.
     */
    static long estimatedBytes(SinkRecord record) {
        long size = estimatedBytes(record.key()) + estimatedBytes(record.value());
        for (Header header : record.headers()) {
            size += header.key().length() + estimatedBytes(header.value());
        }
        return size;
    }

    private static long estimatedBytes(Object value) {
        if (value instanceof byte[] array) {
            return array.length;
        }
        if (value instanceof ByteBuffer buffer) {
            return buffer.remaining();
        }
        if (value instanceof String text) {
            return text.length();
        }
        return 0;
    }
}
