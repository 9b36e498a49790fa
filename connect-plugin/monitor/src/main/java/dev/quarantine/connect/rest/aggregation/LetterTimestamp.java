package dev.quarantine.connect.rest.aggregation;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * The aggregation's timestamp of a dead letter: its own, or, when it has none (-1, which the wire protocol carries and
 * the broker keeps, so anyone who may write to a dead-letter topic can write it), its partition's time so far, or 0
 * before the partition has one. Every letter is counted: one without a time of its own in the rates of its partition's
 * time (the minute of the letters before it), or, at 0, in none.
 * Kafka Streams' default extractor fails the stream thread on such a letter instead (and logs the whole record, key
 * and value included): the replaced thread met it again, for ever, and no letter after it was counted.
 */
final class LetterTimestamp implements TimestampExtractor {

    @Override
    public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
        long timestamp = record.timestamp();
        return timestamp >= 0 ? timestamp : Math.max(partitionTime, 0);
    }
}
