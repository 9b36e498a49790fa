package dev.quarantine.replay;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;

import dev.quarantine.txn.DeadLetter;
import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.txn.DeadLetterRecordBuilder;
import dev.quarantine.txn.DeadLetterRecordBuilder.HeaderStyle;
import dev.quarantine.txn.SendErrorCategory;
import dev.quarantine.txn.SendErrors;
import dev.quarantine.txn.TxnSendOption;
import dev.quarantine.txn.TxnSendProducer;

/**
 * Writes one batch of a replay in one transaction: each replayed record with {@code IGNORE_SEND_ERRORS}; a record
 * that is still poison dead-lettered again (or parked, as {@link LoopGuard} says) in the same transaction; then the
 * replay's progress. A record the broker rejects although the up-front checks passed fails the commit: the batch is
 * aborted, the record remembered as poison, and the engine reads the batch again, dead-lettering it this time.
 */
final class ReplayWriter implements AutoCloseable {

    /** The batch was aborted because the broker rejected records the checks let through; read it again. */
    static final class BatchRejected extends KafkaException {
        BatchRejected(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    /** Room for a record's own framing and its batch's header around the progress record's key and value. */
    private static final int RECORD_OVERHEAD_BYTES = 128;
    /** Room for the {@code /written/<i>} of a segment record's key. */
    private static final int SEGMENT_KEY_BYTES = 20;

    private final TxnSendProducer<byte[], byte[]> producer;
    private final String progressTopic;
    private final byte[] replayKey;
    private final LoopGuard guard;
    private final Map<String, DeadLetterRecordBuilder> builders = new HashMap<>();
    private final String dlqTopic;
    private final String parkingTopic;
    private final Map<String, Throwable> sendFailures = new ConcurrentHashMap<>();
    private final Map<String, Throwable> knownPoison = new HashMap<>();
    private volatile Throwable ownWriteFailure;
    private boolean inTransaction;
    private boolean abortedSinceCommit;
    private boolean commitRefused;
    /** The progress of a commit whose answer did not come in time: its outcome unknown until it is retried. */
    private ReplayProgress pendingCommit;

    ReplayWriter(TxnSendProducer<byte[], byte[]> producer, ReplayConfig config) {
        this.producer = producer;
        this.progressTopic = config.progressTopic();
        this.replayKey = config.replayId().getBytes(StandardCharsets.UTF_8);
        this.guard = new LoopGuard(config.maxAttempts());
        this.dlqTopic = config.dlqTopic();
        this.parkingTopic = config.parkingTopic();
    }

    void init() {
        producer.initTransactions();
    }

    void begin() {
        sendFailures.clear();
        ownWriteFailure = null;
        abortedSinceCommit = false;
        commitRefused = false;
        producer.beginTransaction();
        inTransaction = true;
    }

    /** Writes {@code letter} to {@code target}; dead-letters or parks it again when it is still poison. */
    RecordReport replay(DeadLetterView letter, DestinationResolver.Target target) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(target.topic(), target.partition(),
                letter.originalTimestamp(), target.key(), target.value(), HeaderRewrite.replayed(letter.headers()));
        Throwable failure = knownPoison.remove(letter.position());
        if (failure == null) {
            failure = send(record, letter.position());
        }
        if (failure == null) {
            return report(letter, Outcome.REPLAYED, target.topic() + partition(target.partition()));
        }
        boolean park = guard.decide(HeaderRewrite.replayCount(record.headers())) == LoopGuard.Decision.PARK;
        DeadLetterRecordBuilder builder = builder(park ? parkingTopic : dlqTopic, letter.style());
        DeadLetter again = DeadLetter.of(record.key(), record.value(), record.headers().toArray(), failure)
                .target(record.topic(), record.partition()).timestamp(record.timestamp())
                .context(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, letter.connectorName().orElse(null))
                .context(DeadLetterHeaders.APPLICATION_ID, letter.applicationId().orElse(null));
        Optional<String> sourceTopic = letter.sourceTopic().value();
        Optional<Integer> sourcePartition = letter.sourcePartition().value();
        Optional<Long> sourceOffset = letter.sourceOffset().value();
        if (sourceTopic.isPresent() && sourcePartition.isPresent() && sourceOffset.isPresent()) {
            again.source(sourceTopic.get(), sourcePartition.get(), sourceOffset.get());
        }
        producer.send(builder.build(again, producer.maxRecordBytes(builder.topic())), (metadata, error) -> {
            if (error != null) {
                ownWriteFailure = error;
            }
        }, TxnSendOption.NONE);
        return report(letter, park ? Outcome.PARKED : Outcome.DEAD_LETTERED_AGAIN, builder.topic());
    }

    /**
     * Adds {@code progress} to the transaction and commits it; when its record would not fit in the progress topic,
     * its written ranges go into segment records of the same transaction first ({@link ProgressFormat#fitted}).
     * Returns what was committed.
     *
     * @throws RecordTooLargeException when even without written ranges it does not fit, naming the progress topic
     */
    ReplayProgress commit(ReplayProgress progress) {
        int maxBytes = producer.maxRecordBytes(progressTopic) - replayKey.length - SEGMENT_KEY_BYTES
                - RECORD_OVERHEAD_BYTES;
        ProgressFormat.Fitted fitted = ProgressFormat.fitted(progress, maxBytes);
        byte[] value = ProgressFormat.write(fitted.progress());
        if (value.length > maxBytes) {
            throw new RecordTooLargeException("The progress record of replay " + progress.replayId() + " is "
                    + value.length + " bytes without written ranges, more than progress topic " + progressTopic
                    + " accepts (" + maxBytes + "): raise its " + TopicConfig.MAX_MESSAGE_BYTES_CONFIG
                    + " or choose another " + ReplayConfig.PROGRESS_TOPIC_CONFIG);
        }
        for (ProgressFormat.Segment segment : fitted.segments()) {
            sendProgressTopic(segment.key().getBytes(StandardCharsets.UTF_8), segment.value());
        }
        sendProgressTopic(replayKey, value);
        return endCommit(fitted.progress());
    }

    /**
     * Whether the last commit's answer did not come in time ({@code max.block.ms}; or the thread was interrupted):
     * the coordinator may still commit it, or an abort may end it, so nothing else is done with this producer until
     * {@link #retryCommit} learns its outcome (Kafka's producer refuses another operation meanwhile).
     */
    boolean commitPending() {
        return pendingCommit != null;
    }

    /** The progress of the commit that waits for its answer ({@link #commitPending}). */
    Optional<ReplayProgress> pendingProgress() {
        return Optional.ofNullable(pendingCommit);
    }

    /**
     * Calls {@code commitTransaction} again for a commit whose answer did not come in time (as Kafka's producer asks):
     * returns the progress it committed once the answer comes.
     *
     * @throws TimeoutException when it does not come in time again (still pending)
     * @throws KafkaException as {@link #commit} does when the commit failed (the transaction then aborted)
     */
    ReplayProgress retryCommit() {
        if (pendingCommit == null) {
            throw new IllegalStateException("no commit of replay " + new String(replayKey, StandardCharsets.UTF_8)
                    + " waits for its answer");
        }
        ReplayProgress pending = pendingCommit;
        pendingCommit = null;
        return endCommit(pending);
    }

    private ReplayProgress endCommit(ReplayProgress progress) {
        try {
            producer.commitTransaction();
            inTransaction = false;
            abortedSinceCommit = false;
        } catch (TimeoutException | InterruptException e) {
            pendingCommit = progress; // the request may have reached the coordinator: neither done nor to abort
            throw e;
        } catch (KafkaException e) {
            commitRefused = true;
            throw afterFailedCommit(e);
        }
        return progress;
    }

    private void sendProgressTopic(byte[] key, byte[] value) {
        producer.send(new ProducerRecord<>(progressTopic, key, value), (m, error) -> {
            if (error != null) {
                ownWriteFailure = error;
            }
        }, TxnSendOption.NONE);
    }

    /**
     * Aborts the open transaction, if any, after {@code error}; returns the error to throw. A fenced producer cannot
     * abort: the instance that fenced it aborts what it left open. A commit that waits for its answer is not aborted
     * ({@link #commitPending}).
     */
    RuntimeException abort(RuntimeException error) {
        if (pendingCommit != null) {
            return error; // a commit waits for its answer: retried, not aborted (Kafka's producer refuses the abort)
        }
        if (!inTransaction || SendErrors.isFencing(error)) {
            inTransaction = false;
            return error;
        }
        inTransaction = false;
        try {
            producer.abortTransaction();
            abortedSinceCommit = true;
        } catch (RuntimeException abortError) {
            error.addSuppressed(abortError);
        }
        return error;
    }

    /**
     * Whether the id's last ended transaction is this writer's own abort: the transaction begun last was aborted by
     * this writer and the abort was answered (an abort that threw, a fenced producer's say, ended nothing of ours, and
     * a fence's abort of a transaction begun since is another instance's).
     */
    boolean abortedSinceCommit() {
        return abortedSinceCommit;
    }

    /** Whether the transaction begun last failed in {@code commitTransaction} itself (its end was refused). */
    boolean commitRefused() {
        return commitRefused;
    }

    private RuntimeException afterFailedCommit(KafkaException e) {
        RuntimeException error = abort(e);
        if (SendErrors.isFencing(e) || ownWriteFailure != null) {
            if (ownWriteFailure != null && ownWriteFailure != e) {
                error.addSuppressed(ownWriteFailure);
            }
            return error;
        }
        Map<String, Throwable> poison = new HashMap<>();
        sendFailures.forEach((position, failure) -> {
            if (SendErrors.classify(failure) == SendErrorCategory.RECORD) {
                poison.put(position, failure);
            }
        });
        if (poison.isEmpty()) {
            return error;
        }
        knownPoison.putAll(poison);
        return new BatchRejected("The broker rejected " + poison.keySet() + " on replay; the batch was aborted and"
                + " is read again, with them dead-lettered", e);
    }

    private Throwable send(ProducerRecord<byte[], byte[]> record, String position) {
        Future<RecordMetadata> sent = producer.send(record, (metadata, error) -> {
            if (error != null) {
                sendFailures.put(position, error);
            }
        }, TxnSendOption.IGNORE_SEND_ERRORS);
        if (!sent.isDone()) {
            return null;
        }
        try {
            sent.get();
            return null;
        } catch (ExecutionException e) {
            sendFailures.remove(position);
            Throwable cause = SendErrors.unwrap(e);
            if (SendErrors.classify(cause) == SendErrorCategory.RECORD) {
                return cause;
            }
            throw cause instanceof KafkaException k ? k : new KafkaException("Could not replay " + position, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while replaying " + position, e);
        }
    }

    private DeadLetterRecordBuilder builder(String topic, HeaderStyle style) {
        return builders.computeIfAbsent(topic + "/" + style,
                key -> new DeadLetterRecordBuilder(topic, style, Integer.MAX_VALUE));
    }

    private static RecordReport report(DeadLetterView letter, Outcome outcome, String destination) {
        return new RecordReport(letter.position(), outcome, Optional.of(destination), letter.errorClass(),
                Optional.empty());
    }

    private static String partition(Integer partition) {
        return partition == null ? "" : "-" + partition;
    }

    @Override
    public void close() {
        producer.close(CLOSE_TIMEOUT);
    }
}
