package dev.quarantine.connect.sink;

import org.apache.kafka.connect.sink.SinkRecord;

/** The one formatter for where a record is: {@code topic-partition@offset}, as it was read; never its contents. */
final class Coordinates {

    private Coordinates() {
    }

    static String of(SinkRecord record) {
        return record.originalTopic() + "-" + record.originalKafkaPartition() + "@" + record.originalKafkaOffset();
    }
}
