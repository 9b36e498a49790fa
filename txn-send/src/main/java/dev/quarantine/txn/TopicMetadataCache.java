package dev.quarantine.txn;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Topic metadata and configuration for the up-front checks, described once per topic and refreshed in the background
 * when older than {@code maxAge}; never a describe call per record, and no clock read per record either (a timer
 * marks an entry stale). A topic described as unknown the first time it is seen is looked up again for
 * {@code missingTopicWait} before it is believed missing (a topic created a moment ago may not have reached the broker
 * that answers); a missing topic is looked up again when its entry is older than a second, so a topic created
 * meanwhile is found.
 */
final class TopicMetadataCache implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TopicMetadataCache.class);
    private static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final TopicDescriber describer;
    private final long maxAgeNanos;
    private final Duration timeout;
    private final long missingTopicWaitNanos;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private volatile Boolean autoCreate;

    /**
     * What was read of one topic, and when. {@code stale} is set by a timer once the entry is older than
     * {@code maxAge}, so that {@link #get} on the send path reads a flag instead of the clock.
     */
    private static final class Entry {
        final TopicInfo info;
        final long fetchedAtNanos = System.nanoTime();
        final AtomicBoolean refreshing = new AtomicBoolean();
        volatile boolean stale;

        Entry(TopicInfo info) {
            this.info = info;
        }

        long ageNanos() {
            return System.nanoTime() - fetchedAtNanos;
        }
    }

    /**
     * @param timeout          how long a synchronous look-up may take (the producer's max.block.ms)
     * @param missingTopicWait how long an unknown topic seen for the first time is looked up again
     */
    TopicMetadataCache(TopicDescriber describer, Duration maxAge, Duration timeout, Duration missingTopicWait) {
        this.describer = describer;
        this.maxAgeNanos = maxAge.toNanos();
        this.timeout = timeout;
        this.missingTopicWaitNanos = missingTopicWait.toNanos();
    }

    /** What is known of {@code topic}; blocks only the first time, or when a missing topic is looked up again. */
    TopicInfo get(String topic) {
        Entry entry = entries.get(topic);
        if (entry == null) {
            return fetchFirstTime(topic);
        }
        if (!entry.info.exists() && entry.ageNanos() > RECHECK_NANOS) {
            return fetchNow(topic);
        }
        if (entry.stale && entry.refreshing.compareAndSet(false, true)) {
            refreshInBackground(topic, entry);
        }
        return entry.info;
    }

    /** Fetches {@code topic} again now unless its entry is younger than a second (partitions may have been added). */
    TopicInfo recheck(String topic) {
        Entry entry = entries.get(topic);
        return entry != null && entry.ageNanos() <= RECHECK_NANOS ? entry.info : fetchNow(topic);
    }

    /** Whether the brokers create a missing topic on first use ({@code auto.create.topics.enable}). */
    boolean autoCreateEnabled() {
        Boolean known = autoCreate;
        if (known == null) {
            known = await(describer.autoCreateEnabled(), "auto.create.topics.enable of the brokers");
            autoCreate = known;
        }
        return known;
    }

    @Override
    public void close() {
        describer.close();
    }

    private TopicInfo fetchFirstTime(String topic) {
        long deadline = System.nanoTime() + missingTopicWaitNanos;
        long backoffMs = 20;
        TopicInfo info = fetchNow(topic);
        while (!info.exists() && System.nanoTime() < deadline) {
            long leftMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            try {
                Thread.sleep(Math.min(backoffMs, leftMs));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptException(e);
            }
            backoffMs = Math.min(backoffMs * 2, 200);
            info = fetchNow(topic);
        }
        return info;
    }

    private TopicInfo fetchNow(String topic) {
        TopicInfo info = await(describer.describe(topic), "topic " + topic);
        store(topic, info);
        return info;
    }

    private void refreshInBackground(String topic, Entry stale) {
        describer.describe(topic).whenComplete((info, error) -> {
            if (error == null) {
                store(topic, info);
            } else {
                log.warn("Could not refresh metadata of topic {}; using what was read {} s ago: {}", topic,
                        TimeUnit.NANOSECONDS.toSeconds(stale.ageNanos()), SendErrors.unwrap(error).toString());
                stale.refreshing.set(false);
            }
        });
    }

    private void store(String topic, TopicInfo info) {
        Entry entry = new Entry(info);
        entries.put(topic, entry);
        // the JDK's one shared delay thread; setting a flag is all it runs
        CompletableFuture.delayedExecutor(maxAgeNanos, TimeUnit.NANOSECONDS, Runnable::run)
                .execute(() -> entry.stale = true);
    }

    private <T> T await(CompletableFuture<T> future, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("Could not describe " + what + " within " + timeout.toMillis()
                    + " ms (max.block.ms)", e);
        } catch (ExecutionException e) {
            Throwable cause = SendErrors.unwrap(e);
            if (cause instanceof KafkaException kafkaException) {
                throw kafkaException;
            }
            throw new KafkaException("Could not describe " + what, cause);
        }
    }
}
