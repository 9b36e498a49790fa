package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import dev.quarantine.txn.DeadLetterHeaders;

class DryRunTallyTest {

    private static final Instant NOW = Instant.parse("2026-12-03T03:00:00Z");

    @Test
    void countsWhereEachDeadLetterWouldGoAndWhereTheRuleRefusesItWritingNothing() {
        RecordPlan plan = new RecordPlan(ReplayFilter.all(), WrittenOffsets.NONE,
                new DestinationResolver(Destination.parse(ReplayConfig.DESTINATION_CONFIG, "original")),
                new DestinationRule(Letters.DLQ, Optional.empty(), Optional.of(Pattern.compile("out")),
                        Pattern.compile("connect-configs")), topic -> OptionalInt.of(3), false);
        List<ConsumerRecord<byte[], byte[]>> batch = List.of(
                record(0, DeadLetterHeaders.TARGET_TOPIC, "out", DeadLetterHeaders.ERROR_CATEGORY, "RECORD"),
                record(1, DeadLetterHeaders.TARGET_TOPIC, "out", DeadLetterHeaders.TARGET_PARTITION, "2",
                        DeadLetterHeaders.ERROR_CATEGORY, "RECORD"),
                record(2, DeadLetterHeaders.TARGET_TOPIC, "payments", DeadLetterHeaders.ERROR_CATEGORY, "RECORD"),
                record(3));
        List<RecordReport> heard = new ArrayList<>();
        DryRunTally tally = new DryRunTally();

        ReplayProgress decided = tally.decide(start(), batch, Map.of(0, 4L), plan, heard::add);

        assertThat(heard).extracting(RecordReport::destination).containsExactly(Optional.of("out"),
                Optional.of("out-2"), Optional.of("payments"), Optional.empty());
        assertThat(heard).extracting(RecordReport::outcome).containsExactly(Outcome.REPLAYED, Outcome.REPLAYED,
                Outcome.REFUSED_DESTINATION, Outcome.SKIPPED_UNROUTABLE);
        DryRunReport report = tally.report(decided);
        assertThat(report.byDestination()).isEqualTo(Map.of("out", 2L));
        assertThat(report.refusedByDestination()).isEqualTo(Map.of("payments", 1L));
        assertThat(report.until()).isEqualTo(Map.of(0, 4L));
        assertThat(decided.written()).isEqualTo(WrittenOffsets.NONE);
        assertThat(decided.counts().replayed()).isEqualTo(2);
    }

    private static ConsumerRecord<byte[], byte[]> record(long offset, String... headers) {
        return Letters.record(0, offset, Letters.TIMESTAMP, Letters.headers(headers));
    }

    private static ReplayProgress start() {
        return new ReplayProgress("fix-1", Letters.DLQ, Uuid.randomUuid(), ReplayState.RUNNING,
                new TreeMap<>(Map.of(0, 0L)), new TreeMap<>(Map.of(0, 10L)), new TreeMap<>(Map.of(0, 0L)),
                ReplayCounts.ZERO, WrittenOffsets.NONE, NOW, NOW);
    }
}
