package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

import dev.quarantine.sandbox.Await;

class TopicMetadataCacheTest {

    private static final TopicInfo THREE_PARTITIONS = TopicInfo.withoutConfigs(3);

    /** Answers describe calls from a script; the last answer repeats. */
    private static class ScriptedDescriber implements TopicDescriber {
        final Deque<CompletableFuture<TopicInfo>> answers = new ArrayDeque<>();
        final AtomicInteger calls = new AtomicInteger();

        ScriptedDescriber then(TopicInfo info) {
            answers.add(CompletableFuture.completedFuture(info));
            return this;
        }

        ScriptedDescriber then(CompletableFuture<TopicInfo> answer) {
            answers.add(answer);
            return this;
        }

        @Override
        public CompletableFuture<TopicInfo> describe(String topic) {
            calls.incrementAndGet();
            return answers.size() > 1 ? answers.poll() : answers.peek();
        }

        @Override
        public CompletableFuture<Boolean> autoCreateEnabled() {
            return CompletableFuture.completedFuture(false);
        }

        @Override
        public void close() {
        }
    }

    @Test
    void findsATopicThatTheClusterDoesNotKnowYetTheFirstTimeItIsSeen() {
        ScriptedDescriber describer = new ScriptedDescriber().then(TopicInfo.missing()).then(TopicInfo.missing())
                .then(THREE_PARTITIONS);
        TopicMetadataCache cache = cache(describer, Duration.ofSeconds(5));

        assertThat(cache.get("new-topic")).isEqualTo(THREE_PARTITIONS);
        assertThat(describer.calls).hasValue(3);
    }

    @Test
    void believesATopicMissingAfterTheWaitAndDoesNotWaitAgainForIt() {
        ScriptedDescriber describer = new ScriptedDescriber().then(TopicInfo.missing());
        TopicMetadataCache cache = cache(describer, Duration.ofMillis(100));

        assertThat(cache.get("typo").exists()).isFalse();
        int afterFirst = describer.calls.get();
        assertThat(cache.get("typo").exists()).isFalse();
        assertThat(describer.calls).as("a known-missing topic is served from the cache for a second")
                .hasValue(afterFirst);
    }

    @Test
    void describesAKnownTopicOnceAndServesItFromTheCache() {
        ScriptedDescriber describer = new ScriptedDescriber().then(THREE_PARTITIONS);
        TopicMetadataCache cache = cache(describer, Duration.ofSeconds(1));

        for (int i = 0; i < 1000; i++) {
            assertThat(cache.get("orders")).isEqualTo(THREE_PARTITIONS);
        }
        assertThat(describer.calls).hasValue(1);
    }

    @Test
    void callersAskingForATopicWhileItIsBeingDescribedWaitForThatOneDescribeCall() throws Exception {
        int callers = 8;
        CompletableFuture<TopicInfo> answer = new CompletableFuture<>();
        // without one describe call for all, the callers' own calls complete the answer as soon as all have asked
        ScriptedDescriber describer = new ScriptedDescriber() {
            @Override
            public CompletableFuture<TopicInfo> describe(String topic) {
                if (calls.incrementAndGet() == callers) {
                    answer.complete(THREE_PARTITIONS);
                }
                return answer;
            }
        };
        TopicMetadataCache cache = new TopicMetadataCache(describer, Duration.ofMinutes(1), Duration.ofSeconds(30),
                Duration.ZERO);
        answer.completeOnTimeout(THREE_PARTITIONS, 2, TimeUnit.SECONDS);

        ExecutorService threads = Executors.newFixedThreadPool(callers);
        try {
            List<CompletableFuture<TopicInfo>> asked = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                asked.add(CompletableFuture.supplyAsync(() -> cache.get("orders"), threads));
            }
            for (CompletableFuture<TopicInfo> info : asked) {
                assertThat(info.get(30, TimeUnit.SECONDS)).isEqualTo(THREE_PARTITIONS);
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(describer.calls).as("describe calls for " + callers + " callers").hasValue(1);
    }

    @Test
    void aSecondCallerSeeingATopicForTheFirstTimeWhileAnotherWaitsForItWaitsTooInsteadOfBelievingItMissing()
            throws Exception {
        CompletableFuture<TopicInfo> created = new CompletableFuture<>();
        ScriptedDescriber describer = new ScriptedDescriber().then(TopicInfo.missing()).then(created);
        TopicMetadataCache cache = new TopicMetadataCache(describer, Duration.ofMinutes(1), Duration.ofSeconds(30),
                Duration.ofSeconds(30));
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            CompletableFuture<TopicInfo> first = CompletableFuture.supplyAsync(() -> cache.get("new-topic"), threads);
            Await.until("the first caller to describe the topic again while waiting for it", Duration.ofSeconds(30),
                    () -> describer.calls.get() >= 2);
            CompletableFuture<TopicInfo> second = CompletableFuture.supplyAsync(() -> cache.get("new-topic"), threads);
            // not a synchronisation: time for a second caller that would not wait to answer before the topic appears
            second.copy().completeOnTimeout(null, 1, TimeUnit.SECONDS).exceptionally(e -> null).join();
            created.complete(THREE_PARTITIONS);

            assertThat(second.get(30, TimeUnit.SECONDS)).isEqualTo(THREE_PARTITIONS);
            assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo(THREE_PARTITIONS);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void refreshesATopicInTheBackgroundOnceItsEntryIsOlderThanTheMaxAge() throws InterruptedException {
        TopicInfo fourPartitions = TopicInfo.withoutConfigs(4);
        ScriptedDescriber describer = new ScriptedDescriber().then(THREE_PARTITIONS).then(fourPartitions);
        TopicMetadataCache cache = new TopicMetadataCache(describer, Duration.ofMillis(50), Duration.ofMillis(200),
                Duration.ZERO);

        assertThat(cache.get("orders")).isEqualTo(THREE_PARTITIONS);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!cache.get("orders").equals(fourPartitions) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(cache.get("orders")).as("the entry refreshed within 10 s of its 50 ms max age")
                .isEqualTo(fourPartitions);
    }

    @Test
    void throwsAuthorizationErrorsAndTimesOutWithTheSettingNamed() {
        TopicMetadataCache denied = cache(new ScriptedDescriber()
                .then(CompletableFuture.failedFuture(new TopicAuthorizationException("no"))), Duration.ZERO);
        TopicMetadataCache silent = cache(new ScriptedDescriber().then(new CompletableFuture<>()), Duration.ZERO);

        assertThatThrownBy(() -> denied.get("secret")).isInstanceOf(TopicAuthorizationException.class);
        assertThatThrownBy(() -> silent.get("slow")).isInstanceOf(TimeoutException.class)
                .hasMessageContaining("max.block.ms");
    }

    @Test
    void prefetchDescribesEveryNewTopicAtOnceAndAnswersWhichExist() {
        int topics = 50;
        Map<String, CompletableFuture<TopicInfo>> asked = new ConcurrentHashMap<>();
        // each answer comes only once every topic was asked: one describe after another would never end
        ScriptedDescriber describer = new ScriptedDescriber() {
            @Override
            public CompletableFuture<TopicInfo> describe(String topic) {
                calls.incrementAndGet();
                CompletableFuture<TopicInfo> answer = new CompletableFuture<>();
                asked.put(topic, answer);
                if (asked.size() >= topics) {
                    asked.forEach((name, future) -> future.complete(name.startsWith("gone")
                            ? TopicInfo.missing() : THREE_PARTITIONS));
                }
                return answer;
            }
        };
        TopicMetadataCache cache = new TopicMetadataCache(describer, Duration.ofMinutes(1), Duration.ofSeconds(5),
                Duration.ZERO);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < topics; i++) {
            names.add((i % 10 == 0 ? "gone-" : "t-") + i);
        }

        Set<String> existing = cache.prefetch(names, inFiveSeconds());

        assertThat(existing).hasSize(45).allMatch(name -> name.startsWith("t-"));
        assertThat(describer.calls).hasValue(topics);
        names.stream().filter(name -> name.startsWith("t-")).forEach(cache::get);
        assertThat(describer.calls).as("existing topics are served from the cache after the prefetch")
                .hasValue(topics);
        assertThat(cache.prefetch(names, inFiveSeconds())).hasSize(45);
        assertThat(describer.calls).as("a missing answer of a prefetch is not stored: described again")
                .hasValue(topics + 5);
    }

    @Test
    void prefetchLeavesOutATopicWhoseDescribeFailedAndTheFirstGetReportsIt() {
        ScriptedDescriber describer = new ScriptedDescriber()
                .then(CompletableFuture.failedFuture(new TopicAuthorizationException("denied")));
        TopicMetadataCache cache = cache(describer, Duration.ZERO);

        assertThat(cache.prefetch(List.of("secret"), inFiveSeconds())).isEmpty();
        assertThatThrownBy(() -> cache.get("secret")).isInstanceOf(TopicAuthorizationException.class);
    }

    private static long inFiveSeconds() {
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    }

    private static TopicMetadataCache cache(TopicDescriber describer, Duration missingTopicWait) {
        return new TopicMetadataCache(describer, Duration.ofMinutes(1), Duration.ofMillis(200), missingTopicWait);
    }
}
