package dev.quarantine.connect.sink.write;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.cluster.RecentCommits;
import dev.quarantine.connect.sink.progress.RedoRange;
import dev.quarantine.txn.SendErrorCategory;
import dev.quarantine.txn.SendErrors;

/**
 * One attempt at committing a batch of one source partition: begin, send every record (a record already known as
 * poison, or left out by the up-front checks, goes in as its dead letter instead), ask the breaker, commit with the
 * progress. When it throws, the caller aborts and asks it which record was at fault. In a redo ({@link RedoRange}) a
 * record, or its dead letter, goes only where the redo says.
 */
final class TransactionAttempt {

    private static final Logger log = LoggerFactory.getLogger(TransactionAttempt.class);

    private final TopicPartition source;
    private final TargetProducer producer;
    private final WriteSetup setup;
    private final List<SinkRecord> records;
    private final Map<Long, Throwable> poison;
    private final Optional<RedoRange> redo;
    private final Map<Long, Exception> recordErrors = new ConcurrentHashMap<>();
    private final Map<Long, Exception> deadLetterErrors = new ConcurrentHashMap<>();
    /** The offset of the last record (or dead letter) written to each partition, as the send callbacks said. */
    private final Map<TopicPartition, Long> lastOffsets = new ConcurrentHashMap<>();
    private final List<String> outcomes = new ArrayList<>();
    private volatile Exception progressError;
    private SinkRecord sending;
    private int written;
    private int deadLettered;

    /** A record (by source offset) whose send, or dead letter ({@code deadLetter}), failed, and why. */
    record Failure(long offset, Throwable error, boolean deadLetter) {
    }

    TransactionAttempt(TopicPartition source, TargetProducer producer, WriteSetup setup, List<SinkRecord> records,
                       Map<Long, Throwable> poison) {
        this.source = source;
        this.producer = producer;
        this.setup = setup;
        this.records = records;
        this.poison = poison;
        this.redo = setup.progress().redo(source);
    }

    /** Runs the transaction; returns the next source offset, committed with it. */
    long run() {
        producer.begin();
        for (SinkRecord record : records) {
            sending = record;
            send(record);
        }
        sending = null;
        askBreaker();
        return commit(records.get(0).originalKafkaOffset(), records.get(records.size() - 1).originalKafkaOffset() + 1);
    }

    /**
     * Runs a transaction of the progress alone, moved on to {@code next}: the records below it never reached the
     * task (see {@link BatchCommitter#advance}); {@code from}: the first offset of the last transaction that wrote
     * records, which this one's progress record keeps. Returns {@code next}, committed.
     */
    long advance(long from, long next) {
        producer.begin();
        return commit(from, next);
    }

    private long commit(long from, long next) {
        long start = System.nanoTime();
        producer.commit(setup.progress().record(producer.transactionalId(), source, from, next), (metadata, error) -> {
            if (error != null) {
                progressError = error;
            }
        });
        setup.metrics().committed((System.nanoTime() - start) / 1_000_000);
        setup.metrics().recordsWritten(written);
        if (deadLettered > 0) {
            log.info("Committed {} records of {} up to offset {}, {} dead-lettered", written + deadLettered, source,
                    next - 1, deadLettered);
        }
        return next;
    }

    /** Counts the batch's outcomes; fails the batch (and the task) when too many of them were dead-lettered. */
    private void askBreaker() {
        for (String outcome : outcomes) {
            if (outcome == null) {
                setup.breaker().written();
            } else {
                setup.breaker().deadLettered(outcome).ifPresent(trip -> {
                    throw new WriterErrors.BreakerTripped(trip);
                });
            }
        }
    }

    /** After a failure: the lowest source offset whose record or dead letter failed with {@code action}. */
    Optional<Failure> first(FailureAction action) {
        return records.stream().map(SinkRecord::originalKafkaOffset).flatMap(offset -> failure(offset).stream())
                .filter(failure -> FailureAction.of(failure.error()) == action)
                .findFirst();
    }

    /** After a failure: the errors the records and dead letters of the attempt failed with. */
    List<Exception> failures() {
        List<Exception> failures = new ArrayList<>(recordErrors.values());
        failures.addAll(deadLetterErrors.values());
        return failures;
    }

    private Optional<Failure> failure(long offset) {
        Exception deadLetter = deadLetterErrors.get(offset);
        if (deadLetter != null) {
            return Optional.of(new Failure(offset, deadLetter, true));
        }
        return Optional.ofNullable(recordErrors.get(offset)).map(error -> new Failure(offset, error, false));
    }

    private void written(RecordMetadata metadata) {
        if (metadata == null || !metadata.hasOffset() || metadata.partition() < 0) {
            return; // not appended (a record left out answers without metadata)
        }
        lastOffsets.merge(new TopicPartition(metadata.topic(), metadata.partition()), metadata.offset(), Math::max);
    }

    /**
     * Once committed: the offset of the last record (or dead letter) the transaction wrote on each target and
     * dead-letter partition (see {@link RecentCommits}).
     */
    Map<TopicPartition, Long> lastOffsets() {
        return lastOffsets;
    }

    /** After a failure: why the progress record failed, if it did. */
    Optional<Exception> progressFailure() {
        return Optional.ofNullable(progressError);
    }

    /** The record being sent when the attempt threw, or the first of the batch once all were sent. */
    SinkRecord current() {
        return sending != null ? sending : records.get(0);
    }

    private void send(SinkRecord record) {
        if (record.topic() == null) {
            throw new WriterErrors.NoTopic(record);
        }
        long offset = record.originalKafkaOffset();
        String targetTopic = setup.converter().targetTopic(record);
        Throwable known = poison.get(offset);
        if (known != null) {
            sendDeadLetter(record, null, targetTopic, known);
            return;
        }
        ProducerRecord<byte[], byte[]> converted;
        try {
            converted = setup.converter().convert(record, setup.progress().mappedPartitions(source));
        } catch (SerializationException e) {
            poison(record, null, targetTopic, e);
            return;
        }
        if (redo.isPresent() && !redo.get().sends(offset, converted.topic(), converted.partition())) {
            return; // redone elsewhere: this partition holds the committed copy
        }
        producer.send(converted, (metadata, error) -> {
            if (error != null) {
                recordErrors.put(offset, error);
            } else {
                written(metadata);
            }
        });
        Exception leftOut = recordErrors.get(offset);
        if (leftOut == null) {
            written++;
            outcomes.add(null);
        } else if (FailureAction.of(leftOut) == FailureAction.POISON) {
            recordErrors.remove(offset);
            poison(record, converted, targetTopic, leftOut);
        } else {
            throw leftOut instanceof KafkaException k ? k
                    : new KafkaException("Record " + Coordinates.of(record) + " could not be checked", leftOut);
        }
    }

    private void poison(SinkRecord record, ProducerRecord<byte[], byte[]> converted, String targetTopic,
                        Throwable error) {
        if (setup.deadLetters().isEmpty()) {
            throw new WriterErrors.PoisonInStrictMode(record, targetTopic, error);
        }
        poison.put(record.originalKafkaOffset(), error);
        sendDeadLetter(record, converted, targetTopic, error);
    }

    private void sendDeadLetter(SinkRecord record, ProducerRecord<byte[], byte[]> converted, String targetTopic,
                                Throwable error) {
        DeadLetters letters = setup.deadLetters().orElseThrow();
        if (redo.isPresent() && !redo.get().sends(record.originalKafkaOffset(), letters.topic(), null)) {
            return; // redone elsewhere: the dead-letter topic holds the committed copy
        }
        ProducerRecord<byte[], byte[]> letter;
        try {
            letter = letters.build(record, converted, targetTopic, error, producer.maxRecordBytes(letters.topic()));
        } catch (RecordTooLargeException e) {
            throw new WriterErrors.DeadLetterFailed(record, letters.topic(), e);
        }
        long offset = record.originalKafkaOffset();
        producer.send(letter, (metadata, e) -> {
            if (e != null) {
                deadLetterErrors.put(offset, e);
            } else {
                written(metadata);
            }
        });
        Exception failed = deadLetterErrors.get(offset);
        if (failed != null) {
            if (SendErrors.classify(letter, failed) == SendErrorCategory.FATAL && !SendErrors.isFencing(failed)) {
                throw new WriterErrors.DeadLetterFailed(record, letters.topic(), failed);
            }
            throw failed instanceof KafkaException k ? k : new KafkaException(failed);
        }
        deadLettered++;
        Throwable cause = SendErrors.unwrap(error);
        outcomes.add(cause.getClass().getName());
        setup.metrics().deadLettered(cause);
        log.debug("Dead-lettered {} ({})", Coordinates.of(record), cause.getClass().getName());
    }
}
