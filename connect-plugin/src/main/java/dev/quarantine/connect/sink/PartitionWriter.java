package dev.quarantine.connect.sink;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.txn.SendErrorCategory;
import dev.quarantine.txn.SendErrors;
import dev.quarantine.txn.TxnSendOption;
import dev.quarantine.txn.TxnSendProducer;

/**
 * Writes the records of one source partition to the target cluster: each batch in one transaction of this
 * partition's own producer (transactional id {@code <prefix>.<topic>-<partition>}), together with the dead letters
 * of its poison records and the partition's progress. Either all of it commits or none of it.
 *
 * <p>A record that the up-front checks of {@link TxnSendProducer} catch is left out and dead-lettered at once. A
 * record the broker rejects anyway (say, the topic's limit changed since it was cached) fails the transaction: it is
 * aborted, the rejected records become dead letters, and the batch is written again, at most
 * {@code transaction.retries} times.
 */
final class PartitionWriter implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PartitionWriter.class);

    private final TopicPartition source;
    private final String transactionalId;
    private final TxnSendProducer<byte[], byte[]> producer;
    private final TopicPartition progressPartition;
    private final RecordConverter converter;
    private final Optional<DeadLetters> deadLetters;
    private final SinkMetrics metrics;
    private final int retries;
    private OptionalLong nextOffset = OptionalLong.empty();

    PartitionWriter(TopicPartition source, String transactionalId, TxnSendProducer<byte[], byte[]> producer,
                    TopicPartition progressPartition, RecordConverter converter, Optional<DeadLetters> deadLetters,
                    SinkMetrics metrics, int retries) {
        this.source = source;
        this.transactionalId = transactionalId;
        this.producer = producer;
        this.progressPartition = progressPartition;
        this.converter = converter;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
        this.retries = retries;
    }

    /** The group (and transactional id) that holds this partition's progress. */
    String group() {
        return transactionalId;
    }

    /** The next source offset to write, once known (restored on open or after a commit). */
    OptionalLong nextOffset() {
        return nextOffset;
    }

    void restored(long offset) {
        nextOffset = OptionalLong.of(offset);
    }

    /**
     * Writes {@code records} (all of this partition, in offset order) in one transaction; records below the
     * committed progress are skipped (the worker may deliver them again after a retry or a rewind).
     *
     * @throws Fenced              when another instance took the partition over
     * @throws BrokenProducer      when the producer's state is unknown and it must be recreated
     * @throws RetriableException  when the batch could not be committed within the retries
     * @throws ConnectException    with send.errors.tolerance=none on a poison record, or when a dead letter itself
     *                             cannot be written
     */
    void write(List<SinkRecord> records) {
        List<SinkRecord> fresh = records.stream()
                .filter(r -> nextOffset.isEmpty() || r.originalKafkaOffset() >= nextOffset.getAsLong()).toList();
        if (!fresh.isEmpty()) {
            writeIsolatingRejections(fresh, new HashMap<>(), new int[1]);
        }
    }

    /**
     * Commits {@code records}. When the broker rejects a record the up-front checks let through, the aborted
     * transaction does not say for sure which record was at fault: records sent after the failure fail with the same
     * exception. So the first rejected record is isolated: the records before it are committed, it is sent alone, and
     * only if it fails alone is it poison (dead-lettered in its own transaction); then the rest is written.
     */
    private void writeIsolatingRejections(List<SinkRecord> records, Map<Long, Throwable> poison, int[] failures) {
        List<SinkRecord> remaining = records;
        while (!remaining.isEmpty()) {
            Optional<Rejection> rejected = commit(remaining, poison, failures);
            if (rejected.isEmpty()) {
                return;
            }
            long suspect = rejected.get().offset();
            List<SinkRecord> before = remaining.stream().filter(r -> r.originalKafkaOffset() < suspect).toList();
            SinkRecord record = remaining.stream().filter(r -> r.originalKafkaOffset() == suspect).findFirst()
                    .orElseThrow();
            if (!before.isEmpty()) {
                writeIsolatingRejections(before, poison, failures);
            }
            if (remaining.size() > 1) {
                rejected = commit(List.of(record), poison, failures);
            }
            if (rejected.isPresent()) {
                if (poison.containsKey(suspect)) {
                    throw new DeadLetterFailed(record, deadLetters.orElseThrow().topic(), rejected.get().error());
                }
                if (deadLetters.isEmpty()) {
                    throw new PoisonInStrictMode(record, converter.targetTopic(record), rejected.get().error());
                }
                log.info("The target rejected {}: {}; it goes to the dead-letter topic", Coordinates.of(record),
                        rejected.get().error().getClass().getName());
                poison.put(suspect, rejected.get().error());
                commit(List.of(record), poison, failures).ifPresent(r -> {
                    throw new DeadLetterFailed(record, deadLetters.orElseThrow().topic(), r.error());
                });
            }
            remaining = remaining.stream().filter(r -> r.originalKafkaOffset() > suspect).toList();
        }
    }

    /**
     * One transaction for {@code records}, retried on transient failures (at most {@code transaction.retries} per
     * batch); returns the first record the broker rejected, after aborting, or empty once committed.
     */
    private Optional<Rejection> commit(List<SinkRecord> records, Map<Long, Throwable> poison, int[] failures) {
        while (true) {
            Transaction txn = new Transaction(records, poison);
            try {
                txn.run();
                return Optional.empty();
            } catch (PoisonInStrictMode | DeadLetterFailed e) {
                abort(e);
                throw e;
            } catch (KafkaException e) {
                if (Fenced.isFencing(e)) {
                    throw new Fenced(source, e);
                }
                if (SendErrors.classify(e) == SendErrorCategory.FATAL && !txn.failedInBatch()) {
                    throw new ConnectException("Writing the batch of " + source + " failed and cannot be retried",
                            e);
                }
                abort(e);
                Optional<Rejection> rejected = txn.firstRejected();
                if (rejected.isPresent()) {
                    return rejected;
                }
                if (++failures[0] > retries) {
                    throw new RetriableException("Could not commit the batch of " + source + " (offsets "
                            + records.get(0).originalKafkaOffset() + " to "
                            + records.get(records.size() - 1).originalKafkaOffset() + ") in " + failures[0]
                            + " attempts; the worker will deliver it again", e);
                }
                log.info("Transaction of {} failed and was aborted ({}); writing it again", source,
                        e.getClass().getName());
            } catch (IllegalStateException e) {
                throw new BrokenProducer(source, e);
            }
        }
    }

    /** A record (by source offset) whose send, or dead letter, the broker rejected with a record error. */
    private record Rejection(long offset, Throwable error) {
    }

    /** Aborts the open transaction; a failed abort is attached to {@code cause} and leaves the producer broken. */
    private void abort(RuntimeException cause) {
        try {
            producer.abortTransaction();
            metrics.aborted();
        } catch (RuntimeException abortFailure) {
            cause.addSuppressed(abortFailure);
            if (Fenced.isFencing(abortFailure)) {
                throw new Fenced(source, cause);
            }
            throw new BrokenProducer(source, cause);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }

    /** One attempt at committing a batch. */
    private final class Transaction {
        private final List<SinkRecord> records;
        private final Map<Long, Throwable> poison;
        private final Map<Long, Exception> asyncErrors = new ConcurrentHashMap<>();
        private final Map<Long, Exception> deadLetterErrors = new ConcurrentHashMap<>();
        private int written;
        private int deadLettered;

        Transaction(List<SinkRecord> records, Map<Long, Throwable> poison) {
            this.records = records;
            this.poison = poison;
        }

        void run() {
            producer.beginTransaction();
            for (SinkRecord record : records) {
                send(record);
            }
            long next = records.get(records.size() - 1).originalKafkaOffset() + 1;
            producer.sendOffsetsToTransaction(Map.of(progressPartition, new OffsetAndMetadata(next, "source=" + source)),
                    new ConsumerGroupMetadata(transactionalId));
            long start = System.nanoTime();
            producer.commitTransaction();
            metrics.committed((System.nanoTime() - start) / 1_000_000);
            metrics.recordsWritten(written);
            nextOffset = OptionalLong.of(next);
            if (deadLettered > 0) {
                log.info("Committed {} records of {} up to offset {}, {} dead-lettered", written + deadLettered,
                        source, next - 1, deadLettered);
            }
        }

        boolean failedInBatch() {
            return !asyncErrors.isEmpty() || !deadLetterErrors.isEmpty();
        }

        private void send(SinkRecord record) {
            long offset = record.originalKafkaOffset();
            String targetTopic = converter.targetTopic(record);
            Throwable known = poison.get(offset);
            if (known != null) {
                sendDeadLetter(record, null, targetTopic, known);
                return;
            }
            ProducerRecord<byte[], byte[]> converted;
            try {
                converted = converter.convert(record);
            } catch (org.apache.kafka.common.errors.SerializationException e) {
                poison(record, null, targetTopic, e);
                return;
            }
            producer.send(converted, (metadata, error) -> {
                if (error != null) {
                    asyncErrors.put(offset, error);
                }
            }, TxnSendOption.IGNORE_SEND_ERRORS);
            Exception leftOut = asyncErrors.get(offset);
            if (leftOut == null) {
                written++;
                return;
            }
            asyncErrors.remove(offset);
            if (SendErrors.classify(leftOut) == SendErrorCategory.RECORD) {
                poison(record, converted, targetTopic, leftOut);
            } else {
                throw leftOut instanceof KafkaException k ? k
                        : new KafkaException("A record of " + Coordinates.of(record) + " could not be checked", leftOut);
            }
        }

        private void poison(SinkRecord record, ProducerRecord<byte[], byte[]> converted, String targetTopic,
                            Throwable error) {
            if (deadLetters.isEmpty()) {
                throw new PoisonInStrictMode(record, targetTopic, error);
            }
            poison.put(record.originalKafkaOffset(), error);
            sendDeadLetter(record, converted, targetTopic, error);
        }

        private void sendDeadLetter(SinkRecord record, ProducerRecord<byte[], byte[]> converted, String targetTopic,
                                    Throwable error) {
            DeadLetters letters = deadLetters.orElseThrow();
            ProducerRecord<byte[], byte[]> letter = letters.build(record, converted, targetTopic, error);
            long offset = record.originalKafkaOffset();
            producer.send(letter, (metadata, e) -> {
                if (e != null) {
                    deadLetterErrors.put(offset, e);
                }
            }, TxnSendOption.IGNORE_SEND_ERRORS);
            Exception failed = deadLetterErrors.remove(offset);
            if (failed != null) {
                if (SendErrors.classify(letter, failed) == SendErrorCategory.FATAL) {
                    throw new DeadLetterFailed(record, letters.topic(), failed);
                }
                throw failed instanceof KafkaException k ? k : new KafkaException(failed);
            }
            deadLettered++;
            metrics.deadLettered(SendErrors.unwrap(error));
            log.debug("Dead-lettered {} ({})", Coordinates.of(record), error.getClass().getName());
        }

        /** After an abort: the lowest source offset whose record or dead letter failed with a record error. */
        Optional<Rejection> firstRejected() {
            Map<Long, Throwable> rejected = new java.util.TreeMap<>();
            deadLetterErrors.forEach((offset, error) -> {
                if (SendErrors.classify(error) == SendErrorCategory.RECORD) {
                    rejected.putIfAbsent(offset, error);
                }
            });
            asyncErrors.forEach((offset, error) -> {
                if (SendErrors.classify(error) == SendErrorCategory.RECORD) {
                    rejected.putIfAbsent(offset, error);
                }
            });
            return rejected.entrySet().stream().findFirst().map(e -> new Rejection(e.getKey(), e.getValue()));
        }
    }

    /** Another instance took this partition over: its producer fenced ours. */
    static final class Fenced extends ConnectException {
        final transient TopicPartition partition;

        Fenced(TopicPartition partition, Throwable cause) {
            super("The producer of " + partition + " was fenced: another task instance owns the partition now", cause);
            this.partition = partition;
        }

        static boolean isFencing(Throwable error) {
            for (Throwable e = error; e != null; e = e.getCause()) {
                if (e instanceof org.apache.kafka.common.errors.ProducerFencedException
                        || e instanceof org.apache.kafka.common.errors.InvalidProducerEpochException) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The producer's transaction state is unknown (an abort failed, a fatal error): recreate it. */
    static final class BrokenProducer extends ConnectException {
        final transient TopicPartition partition;

        BrokenProducer(TopicPartition partition, Throwable cause) {
            super("The producer of " + partition + " must be recreated", cause);
            this.partition = partition;
        }
    }

    /** A poison record with send.errors.tolerance=none. */
    static final class PoisonInStrictMode extends ConnectException {
        PoisonInStrictMode(SinkRecord record, String targetTopic, Throwable cause) {
            super("Record " + Coordinates.of(record) + " cannot be written to " + targetTopic + ": "
                    + SendErrors.unwrap(cause).getClass().getName() + ": " + SendErrors.unwrap(cause).getMessage()
                    + ". With " + TransactionalSinkConfig.SEND_ERRORS_TOLERANCE_CONFIG + "=none the task stops;"
                    + " set it to all (with " + TransactionalSinkConfig.DLQ_TOPIC_NAME_CONFIG
                    + ") to dead-letter such records", cause);
        }
    }

    /** A dead letter that cannot be written: never dead-lettered again, the task stops. */
    static final class DeadLetterFailed extends ConnectException {
        DeadLetterFailed(SinkRecord record, String dlqTopic, Throwable cause) {
            super("The dead letter of " + Coordinates.of(record) + " cannot be written to " + dlqTopic + ": "
                    + SendErrors.unwrap(cause).getClass().getName() + "; check the topic and "
                    + TransactionalSinkConfig.DLQ_PAYLOAD_MAX_BYTES_CONFIG, cause);
        }
    }
}
