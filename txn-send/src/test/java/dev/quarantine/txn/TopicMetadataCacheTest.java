package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

class TopicMetadataCacheTest {

    private static final TopicInfo THREE_PARTITIONS = TopicInfo.withoutConfigs(3);

    /** Answers describe calls from a script; the last answer repeats. */
    private static final class ScriptedDescriber implements TopicDescriber {
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

    private static TopicMetadataCache cache(TopicDescriber describer, Duration missingTopicWait) {
        return new TopicMetadataCache(describer, Duration.ofMinutes(1), Duration.ofMillis(200), missingTopicWait);
    }
}
