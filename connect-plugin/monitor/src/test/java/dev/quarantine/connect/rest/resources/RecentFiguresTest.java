package dev.quarantine.connect.rest.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.connect.rest.aggregation.PartitionFigures;
import dev.quarantine.sandbox.MovableClock;

class RecentFiguresTest {

    @Test
    void servesTheLastAnswerUntilItIsOlderThanTheMaxAge() {
        MovableClock clock = new MovableClock(Instant.EPOCH);
        RecentFigures recent = new RecentFigures(Duration.ofSeconds(1), clock);
        AtomicInteger reads = new AtomicInteger();

        PartitionFigures first = recent.get("", () -> countRead(reads));
        clock.advance(Duration.ofMillis(999));
        assertThat(recent.get("", () -> countRead(reads))).isSameAs(first);
        clock.advance(Duration.ofMillis(1));
        assertThat(recent.get("", () -> countRead(reads))).isNotSameAs(first);
        assertThat(reads).hasValue(2);
    }

    @Test
    void keepsAtMostTheCapOfQueriesDroppingExpiredOnesFirst() {
        MovableClock clock = new MovableClock(Instant.EPOCH);
        RecentFigures recent = new RecentFigures(Duration.ofSeconds(1), clock);
        AtomicInteger reads = new AtomicInteger();
        for (int i = 0; i < RecentFigures.MAX_ENTRIES; i++) {
            recent.get("topic-" + i, () -> countRead(reads));
        }

        PartitionFigures beyond = recent.get("one-more", () -> countRead(reads));
        assertThat(recent.get("one-more", () -> countRead(reads))).as("not kept: the cap is reached")
                .isNotSameAs(beyond);
        clock.advance(Duration.ofMillis(1_000));
        PartitionFigures afterExpiry = recent.get("one-more", () -> countRead(reads));
        assertThat(recent.get("one-more", () -> countRead(reads))).as("kept: expired ones made room")
                .isSameAs(afterExpiry);
    }

    @Test
    void neverKeepsAFailedRead() {
        RecentFigures recent = new RecentFigures(Duration.ofSeconds(1), new MovableClock(Instant.EPOCH));

        assertThatThrownBy(() -> recent.get("t", () -> {
            throw MonitorException.retryable("not ready", null);
        })).isInstanceOf(MonitorException.class);
        assertThat(recent.get("t", PartitionFigures::new)).isNotNull();
    }

    @Test
    void concurrentRequestsShareOneRead() throws Exception {
        RecentFigures recent = new RecentFigures(Duration.ZERO, new MovableClock(Instant.EPOCH));
        AtomicInteger reads = new AtomicInteger();
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<PartitionFigures> first = pool.submit(() -> recent.get("", () -> {
                inside.countDown();
                await(release);
                return countRead(reads);
            }));
            assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
            PartitionFigures[] second = new PartitionFigures[1];
            Thread waiter = new Thread(() -> second[0] = recent.get("", () -> countRead(reads)));
            waiter.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (waiter.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            release.countDown();
            waiter.join(10_000);

            assertThat(second[0]).isSameAs(first.get(10, TimeUnit.SECONDS));
            assertThat(reads).hasValue(1);
        } finally {
            pool.shutdownNow();
        }
    }

    private static PartitionFigures countRead(AtomicInteger reads) {
        reads.incrementAndGet();
        return new PartitionFigures();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
