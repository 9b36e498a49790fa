package dev.quarantine.replay;

import static dev.quarantine.replay.DeadLetterFixtures.committed;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.txn.TxnSendProducer;

/**
 * Speed limits on a real broker. The engine's throttle waits on a {@link FakeTime} that moves only by what it is told
 * to sleep, so each step's wait is asserted exactly and nothing depends on how fast the machine is.
 */
@ExtendWith(LocalKafkaExtension.class)
class ReplaySpeedLimitIT {

    private static final Duration DEADLINE = Duration.ofSeconds(120);

    /** What one step of the engine did: the dead letters it wrote, and what it slept first. */
    private record Step(long written, Duration slept) {
    }

    @Test
    void aReplayLimitedInRecordsWritesEachDeadLetterOnceInBatchesOfOneSecondsWorthWaitingWhatEachCost(
            LocalKafka kafka) {
        String dlq = CliFixtures.sinkDlq(kafka, "rate", 2, 45,
                i -> i % 3 == 2 ? new InvalidTimestampException("too old") : new RecordTooLargeException("too large"));

        FakeTime time = new FakeTime();
        List<Step> steps = run(kafka, time, Map.of(ReplayConfig.REPLAY_ID_CONFIG, "rate-1",
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.DESTINATION_CONFIG, "rate-output",
                ReplayConfig.FILTER_ERROR_CLASSES_CONFIG, "RecordTooLargeException",
                ReplayConfig.MAX_RECORDS_PER_SECOND_CONFIG, "10"));

        List<Step> writing = steps.stream().filter(s -> s.written() > 0).toList();
        assertThat(writing).as("transactions that wrote, each at most one second's worth (10)")
                .hasSizeGreaterThanOrEqualTo(3).allSatisfy(s -> assertThat(s.written()).isBetween(1L, 10L));
        for (int i = 1; i < steps.size(); i++) {
            assertThat(steps.get(i).slept()).as("step %d waited for what step %d wrote, at 10 a second", i, i - 1)
                    .isEqualTo(Duration.ofMillis(100 * steps.get(i - 1).written()));
        }
        assertThat(steps.get(0).slept()).isZero();
        assertThat(time.slept).as("in all, what every batch but the last cost; the 15 filtered cost nothing")
                .isEqualTo(Duration.ofMillis(100 * (30 - steps.get(steps.size() - 1).written())));
        assertOnceEach(committed(kafka, "rate-output"), 30);
    }

    @Test
    void aReplayLimitedInBytesWritesEachDeadLetterOnceInBatchesOfOneSecondsWorthWaitingWhatEachCost(
            LocalKafka kafka) {
        String dlq = CliFixtures.sinkDlq(kafka, "bytes", 20, i -> new RecordTooLargeException("too large"));
        List<Long> sizes = committed(kafka, dlq).stream().map(ReplayThrottle::bytesOf).toList();
        long perSecond = 10_000;
        assertThat(sizes).as("a few dead letters fit in a second's bytes, not all")
                .allSatisfy(size -> assertThat(size).isBetween(perSecond / 5, perSecond / 2));

        FakeTime time = new FakeTime();
        List<Step> steps = run(kafka, time, Map.of(ReplayConfig.REPLAY_ID_CONFIG, "bytes-1",
                ReplayConfig.DLQ_TOPIC_CONFIG, dlq, ReplayConfig.DESTINATION_CONFIG, "bytes-output",
                ReplayConfig.MAX_BYTES_PER_SECOND_CONFIG, String.valueOf(perSecond)));

        int done = 0;
        long previousBytes = 0;
        for (Step step : steps) {
            long bytes = sizes.subList(done, done + (int) step.written()).stream().mapToLong(Long::longValue).sum();
            assertThat(bytes).as("a batch holds at most one second's bytes").isLessThanOrEqualTo(perSecond);
            assertThat(step.slept()).as("waited for the previous batch's %d bytes at %d a second", previousBytes,
                    perSecond).isEqualTo(Duration.ofMillis(ceilMillis(previousBytes, perSecond)));
            done += (int) step.written();
            previousBytes = bytes;
        }
        assertThat(steps.stream().filter(s -> s.written() > 0)).hasSizeGreaterThanOrEqualTo(4);
        assertOnceEach(committed(kafka, "bytes-output"), 20);
    }

    /** Steps the replay to its end, noting what each step wrote and slept. */
    private static List<Step> run(LocalKafka kafka, FakeTime time, Map<String, String> settings) {
        Map<String, Object> all = new HashMap<>(settings);
        all.put(ReplayConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        List<Step> steps = new ArrayList<>();
        try (ReplayEngine engine = new ReplayEngine(new ReplayConfig(all), ReplayEngine.Mode.WRITE,
                ReplayListener.NONE, time, TxnSendProducer::new)) {
            ReplayProgress start = engine.start();
            ReplayProgress done = Await.value("the replay DONE", DEADLINE, () -> {
                ReplayProgress before = engine.progress();
                Duration slept = time.slept;
                ReplayProgress after = engine.step();
                steps.add(new Step(written(after) - written(before), time.slept.minus(slept)));
                return after.finished() ? after : null;
            });
            assertThat(done.state()).isEqualTo(ReplayState.DONE);
            assertThat(written(done) - written(start)).isEqualTo(steps.stream().mapToLong(Step::written).sum());
        }
        return steps;
    }

    private static long written(ReplayProgress progress) {
        return progress.counts().replayed() + progress.counts().deadLetteredAgain() + progress.counts().parked();
    }

    private static long ceilMillis(long bytes, long perSecond) {
        long nanos = (long) Math.ceil((double) bytes * TimeUnit.SECONDS.toNanos(1) / perSecond);
        return (nanos + 999_999) / 1_000_000;
    }

    private static void assertOnceEach(List<ConsumerRecord<byte[], byte[]>> records, int expected) {
        Map<String, Long> perKey = records.stream().collect(Collectors.groupingBy(r -> text(r.key()),
                Collectors.counting()));
        assertThat(perKey).as("each dead letter written once").hasSize(expected)
                .allSatisfy((key, n) -> assertThat(n).isOne());
    }
}
