package dev.quarantine.connect.sink.write;

import org.apache.kafka.connect.sink.SinkRecord;

import dev.quarantine.txn.RecordPositions;

/** Where a sink record is, as it was read, through {@link RecordPositions}: {@code topic-partition@offset}. */
public final class Coordinates {

    private Coordinates() {
    }

    public static String of(SinkRecord record) {
        return RecordPositions.of(record.originalTopic(), record.originalKafkaPartition(), record.originalKafkaOffset());
    }
}
