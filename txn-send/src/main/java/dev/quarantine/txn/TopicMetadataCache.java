package dev.quarantine.txn;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

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
 *
 * <p>Safe for many producers at once ({@link SharedTopicMetadata}): callers that need the same topic while it is
 * being described wait for that one describe call instead of starting their own, and a caller seeing a topic for
 * the first time while another waits for it to appear waits too (a topic is believed missing only once a wait ends).
 */
final class TopicMetadataCache implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TopicMetadataCache.class);
    private static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final TopicDescriber describer;
    private final long maxAgeNanos;
    private final Duration timeout;
    private final long missingTopicWaitNanos;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    /** The describe call under way per topic, which every caller needing that topic meanwhile waits for. */
    private final Map<String, CompletableFuture<TopicInfo>> describing = new ConcurrentHashMap<>();
    private final AtomicReference<CompletableFuture<Boolean>> autoCreate = new AtomicReference<>();

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

    /**
     * The cache {@code config} describes ({@code txn.send.topic.metadata.max.age.ms},
     * {@code txn.send.missing.topic.wait.ms}, {@code max.block.ms} for a look-up), over one admin client created on
     * first use from the admin client settings among the producer {@code configs}.
     */
    static TopicMetadataCache create(TxnSendConfig config, Map<String, ?> configs) {
        return new TopicMetadataCache(AdminTopicDescriber.fromProducerConfigs(configs, config),
                config.topicMetadataMaxAge(), config.maxBlock(), config.missingTopicWait());
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

    /**
     * Starts describing, all at once, those of {@code topics} neither known (a topic believed missing for more than a
     * second counts as unknown, as in {@link #get}) nor being described, and answers which of {@code topics} exist
     * once those describes ended, waiting until {@code deadlineNanos} at most: many topics seen for the first time
     * cost one round of describe calls instead of one round each. A missing answer is not stored (the first
     * {@link #get} of the topic waits for it as usual); a describe that fails or does not end in time leaves the topic
     * out of the answer, for {@link #get} to fail or wait as it would have.
     */
    Set<String> prefetch(Collection<String> topics, long deadlineNanos) {
        Map<String, CompletableFuture<TopicInfo>> waiting = new HashMap<>();
        Set<String> existing = new HashSet<>();
        for (String topic : topics) {
            Entry entry = entries.get(topic);
            if (entry != null && (entry.info.exists() || entry.ageNanos() <= RECHECK_NANOS)) {
                if (entry.info.exists()) {
                    existing.add(topic);
                }
                continue;
            }
            CompletableFuture<TopicInfo> mine = new CompletableFuture<>();
            CompletableFuture<TopicInfo> pending = describing.putIfAbsent(topic, mine);
            if (pending == null) {
                try {
                    describe(topic, mine, false);
                } catch (RuntimeException e) {
                    return existing; // the describer is closed: every get fails on its own
                }
            }
            waiting.put(topic, pending == null ? mine : pending);
        }
        waiting.forEach((topic, future) -> {
            try {
                long leftMs = Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
                if (future.get(leftMs, TimeUnit.MILLISECONDS).exists()) {
                    existing.add(topic);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptException(e);
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                // left out: the topic's first get describes it again and fails as it would have
            }
        });
        return existing;
    }

    /** Fetches {@code topic} again now unless its entry is younger than a second (partitions may have been added). */
    TopicInfo recheck(String topic) {
        Entry entry = entries.get(topic);
        return entry != null && entry.ageNanos() <= RECHECK_NANOS ? entry.info : fetchNow(topic);
    }

    /** Whether the brokers create a missing topic on first use ({@code auto.create.topics.enable}). */
    boolean autoCreateEnabled() {
        CompletableFuture<Boolean> known = autoCreate.get();
        if (known == null) {
            CompletableFuture<Boolean> mine = new CompletableFuture<>();
            known = autoCreate.compareAndExchange(null, mine);
            if (known == null) {
                known = mine;
                describer.autoCreateEnabled().whenComplete((enabled, error) -> {
                    if (error == null) {
                        mine.complete(enabled);
                    } else {
                        autoCreate.set(null);
                        mine.completeExceptionally(error);
                    }
                });
            }
        }
        return await(known, "auto.create.topics.enable of the brokers");
    }

    @Override
    public void close() {
        describer.close();
    }

    private TopicInfo fetchFirstTime(String topic) {
        long deadline = System.nanoTime() + missingTopicWaitNanos;
        long backoffMs = 20;
        TopicInfo info = fetch(topic, true);
        while (!info.exists() && System.nanoTime() < deadline) {
            long leftMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            try {
                Thread.sleep(Math.min(backoffMs, leftMs));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptException(e);
            }
            backoffMs = Math.min(backoffMs * 2, 200);
            info = fetch(topic, true);
        }
        if (!info.exists()) {
            store(topic, info); // believed missing now, for every caller
        }
        return info;
    }

    private TopicInfo fetchNow(String topic) {
        return fetch(topic, false);
    }

    /**
     * Describes {@code topic}, or waits for the describe call already under way for it. {@code firstTime}, while a
     * caller waits for a topic it has not seen: an existing topic stored meanwhile is used instead, and a missing
     * answer is not stored (another caller seeing the topic for the first time waits for it too, as it would alone).
     */
    private TopicInfo fetch(String topic, boolean firstTime) {
        CompletableFuture<TopicInfo> mine = new CompletableFuture<>();
        CompletableFuture<TopicInfo> pending = describing.putIfAbsent(topic, mine);
        if (pending != null) {
            return await(pending, "topic " + topic);
        }
        Entry stored = entries.get(topic);
        if (firstTime && stored != null && stored.info.exists()) {
            describing.remove(topic, mine);
            mine.complete(stored.info);
            return stored.info;
        }
        describe(topic, mine, !firstTime);
        return await(mine, "topic " + topic);
    }

    /**
     * Describes {@code topic} into {@code result}, stored (unless missing and not {@code storeMissing}) before it
     * completes; callers may join it meanwhile.
     */
    private void describe(String topic, CompletableFuture<TopicInfo> result, boolean storeMissing) {
        CompletableFuture<TopicInfo> described;
        try {
            described = describer.describe(topic);
        } catch (RuntimeException e) { // the describer is closed: every caller gets the error as it is
            describing.remove(topic, result);
            result.completeExceptionally(e);
            throw e;
        }
        described.whenComplete((info, error) -> {
            if (error == null && (info.exists() || storeMissing)) {
                store(topic, info);
            }
            describing.remove(topic, result);
            if (error == null) {
                result.complete(info);
            } else {
                result.completeExceptionally(error);
            }
        });
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
