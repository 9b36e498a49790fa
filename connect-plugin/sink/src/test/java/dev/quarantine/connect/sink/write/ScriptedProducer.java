package dev.quarantine.connect.sink.write;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.function.Function;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A MockProducer the test scripts: commits that fail (once each, in order), and records the "broker" rejects
 * (their callbacks fail at commit time, as a produce response would, and the commit then fails in the transaction
 * manager's "error state"). What committed is {@link #history()}, the progress records apart in
 * {@link #progressHistory()}.
 */
public class ScriptedProducer extends MockProducer<byte[], byte[]> {

    final Deque<RuntimeException> commitFailures = new ArrayDeque<>();
    /** Aborts that fail (once each, in order) without aborting. */
    final Deque<RuntimeException> abortFailures = new ArrayDeque<>();
    public Function<ProducerRecord<byte[], byte[]>, RuntimeException> broker = record -> null;
    public int aborts;
    /**
     * As the real transaction manager: once a record was refused, its answer arrives (the callback runs) and every
     * later send of the transaction throws, until the abort. Off: the refusal is answered at the commit only.
     */
    public boolean refusesSendsAfterARejection;
    private final List<Runnable> pendingRejections = new ArrayList<>();
    private RuntimeException rejected;

    public ScriptedProducer() {
        super(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** The records committed, but the progress records (those to a topic named {@code progress...}). */
    @Override
    public synchronized List<ProducerRecord<byte[], byte[]>> history() {
        return super.history().stream().filter(r -> !isProgress(r)).toList();
    }

    /** The progress records committed. */
    synchronized List<ProducerRecord<byte[], byte[]>> progressHistory() {
        return super.history().stream().filter(ScriptedProducer::isProgress).toList();
    }

    private static boolean isProgress(ProducerRecord<byte[], byte[]> record) {
        return record.topic().startsWith("progress") || record.topic().endsWith(".progress");
    }

    @Override
    public synchronized Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
        if (refusesSendsAfterARejection && rejected != null) {
            answerRejections();
            throw new KafkaException("Cannot perform send because at least one previous transactional or"
                    + " idempotent request has failed with errors.", rejected);
        }
        RuntimeException error = broker.apply(record);
        if (error == null) {
            return super.send(record, callback);
        }
        rejected = error;
        pendingRejections.add(() -> callback.onCompletion(null, error));
        return CompletableFuture.failedFuture(error);
    }

    @Override
    public synchronized void flush() {
        if (refusesSendsAfterARejection) {
            answerRejections();
        }
        super.flush();
    }

    private void answerRejections() {
        pendingRejections.forEach(Runnable::run);
        pendingRejections.clear();
    }

    @Override
    public void beginTransaction() {
        rejected = null;
        pendingRejections.clear();
        super.beginTransaction();
    }

    @Override
    public void commitTransaction() {
        answerRejections();
        if (rejected != null) {
            throw new KafkaException("Cannot execute transactional method because we are in an error state", rejected);
        }
        RuntimeException failure = commitFailures.poll();
        if (failure != null) {
            throw failure;
        }
        super.commitTransaction();
    }

    @Override
    public void abortTransaction() {
        RuntimeException failure = abortFailures.poll();
        if (failure != null) {
            throw failure;
        }
        aborts++;
        super.abortTransaction();
    }
}
