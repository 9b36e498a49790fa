package dev.quarantine.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BoundedParallelTest {

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void runsEveryItemAndKeepsTheItemsOrder() {
        List<Integer> items = IntStream.range(0, 50).boxed().toList();

        BoundedParallel.Outcome<Integer, Integer> outcome = BoundedParallel.run(items, 4, threads, i -> i * 2);

        assertThat(outcome.done().keySet()).containsExactlyElementsOf(items);
        assertThat(outcome.done()).containsEntry(49, 98);
        assertThat(outcome.failed()).isEmpty();
    }

    @Test
    void usesTheCallingThreadAndOneThreadLessThanTheParallelism() {
        AtomicInteger handedOut = new AtomicInteger();
        Set<Thread> ran = ConcurrentHashMap.newKeySet();

        BoundedParallel.run(IntStream.range(0, 40).boxed().toList(), 3, runnable -> {
            handedOut.incrementAndGet();
            threads.execute(runnable);
        }, i -> ran.add(Thread.currentThread()));

        assertThat(handedOut).hasValue(2);
        assertThat(ran).hasSizeBetween(1, 3);
    }

    @Test
    void runsItemsAtTheSameTimeUpToTheParallelism() throws InterruptedException {
        CountDownLatch allStarted = new CountDownLatch(3);

        BoundedParallel.Outcome<Integer, Boolean> outcome = BoundedParallel.run(List.of(1, 2, 3), 3, threads, i -> {
            allStarted.countDown();
            try {
                return allStarted.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        assertThat(outcome.done()).as("each item saw the other two started").containsOnlyKeys(1, 2, 3)
                .doesNotContainValue(false);
    }

    @Test
    void runsOneItemOnTheCallingThread() {
        Thread caller = Thread.currentThread();

        BoundedParallel.Outcome<String, Thread> outcome = BoundedParallel.run(List.of("only"), 8, threads,
                item -> Thread.currentThread());

        assertThat(outcome.done()).containsEntry("only", caller);
    }

    @Test
    void keepsTheOthersResultsWhenSomeFailAndPrefersTheFailureAsked() {
        RetriableException transient2 = new RetriableException("2 timed out");
        ConnectException fatal4 = new ConnectException("4 refused");

        BoundedParallel.Outcome<Integer, Integer> outcome = BoundedParallel.run(List.of(1, 2, 3, 4, 5), 2, threads,
                i -> {
                    if (i == 2) {
                        throw transient2;
                    }
                    if (i == 4) {
                        throw fatal4;
                    }
                    return i;
                });

        assertThat(outcome.done()).containsOnlyKeys(1, 3, 5);
        assertThat(outcome.failed().keySet()).containsExactly(2, 4);
        assertThat(outcome.failure(e -> !(e instanceof RetriableException))).contains(fatal4);
        assertThat(outcome.failure(e -> false)).contains(transient2);
    }
}
