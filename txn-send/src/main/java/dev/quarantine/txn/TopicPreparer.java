package dev.quarantine.txn;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.errors.InterruptException;

/**
 * Readies a producer's sends to many topics at once, for {@link TxnSendProducer#prepareTopics}: the topics the
 * {@link RecordGate} does not know yet are described together, and the producer's metadata of the existing ones is
 * fetched by {@code partitionsFor} on up to {@value TxnSendProducer#PREPARING_THREADS} short-lived threads. Remembers
 * when each topic was readied, so that asking again within {@code metadata.max.idle.ms} costs a map look-up. Never
 * fails for a topic: what does not answer by the deadline is left to its first send.
 */
final class TopicPreparer {

    private final Producer<?, ?> producer;
    private final RecordGate<?, ?> gate;
    private final String clientId;
    private final Duration metadataMaxIdle;
    /** When {@link #prepare} was last asked for each topic, by {@link System#nanoTime()}. */
    private final Map<String, Long> prepared = new ConcurrentHashMap<>();

    /**
     * @param clientId        names the threads
     * @param metadataMaxIdle the producer's metadata expiry: a topic readied longer ago than this is readied again
     */
    TopicPreparer(Producer<?, ?> producer, RecordGate<?, ?> gate, String clientId, Duration metadataMaxIdle) {
        this.producer = producer;
        this.gate = gate;
        this.clientId = clientId;
        this.metadataMaxIdle = metadataMaxIdle;
    }

    /**
     * See {@link TxnSendProducer#prepareTopics}.
     *
     * @throws InterruptException when the calling thread is interrupted
     */
    void prepare(Collection<String> topics, Duration within) {
        long now = System.nanoTime();
        long deadline = now + within.toNanos();
        List<String> fresh = new ArrayList<>();
        for (String topic : topics) {
            Long readied = prepared.put(topic, now);
            if (readied == null || now - readied > metadataMaxIdle.toNanos()) {
                fresh.add(topic);
            }
        }
        if (fresh.isEmpty()) {
            return;
        }
        prepared.values().removeIf(readied -> now - readied > metadataMaxIdle.toNanos());
        List<String> existing = new ArrayList<>(gate.prefetch(fresh, deadline));
        if (existing.size() < 2) {
            return; // a single topic's first send waits for one round trip, as this would
        }
        fetchMetadata(existing, deadline);
    }

    /** Asks the producer for the partitions of each of {@code topics}, in parallel, until {@code deadline}. */
    private void fetchMetadata(List<String> topics, long deadline) {
        AtomicInteger threads = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(
                Math.min(TxnSendProducer.PREPARING_THREADS, topics.size()), task -> {
                    Thread thread = new Thread(task, clientId + "-prepare-topics-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        try {
            for (String topic : topics) {
                pool.execute(() -> {
                    try {
                        producer.partitionsFor(topic);
                    } catch (RuntimeException e) {
                        // the topic's first send meets the same error and reports it
                    }
                });
            }
            pool.shutdown();
            pool.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        } finally {
            pool.shutdownNow(); // a look-up still waiting is interrupted: its topic's first send waits instead
        }
    }
}
