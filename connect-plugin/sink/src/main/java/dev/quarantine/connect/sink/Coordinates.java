package dev.quarantine.connect.sink;

import org.apache.kafka.connect.sink.SinkRecord;

import dev.quarantine.txn.RecordPositions;

/** Where a sink record is, as it was read, through {@link RecordPositions}: {@code topic-partition@offset}. */
final class Coordinates {

    private Coordinates() {
    }

    static String of(SinkRecord record) {
        return RecordPositions.of(record.originalTopic(), record.originalKafkaPartition(), record.originalKafkaOffset());
    }
}
