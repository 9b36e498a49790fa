package dev.quarantine.replay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import dev.quarantine.replay.DryRunReport;
import dev.quarantine.replay.Outcome;
import dev.quarantine.replay.RecordReport;
import dev.quarantine.replay.ReplayCounts;
import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.ReplayState;
import dev.quarantine.replay.WrittenOffsets;

class ReplayPrinterTest {

    private static final Optional<String> TOO_LARGE =
            Optional.of("org.apache.kafka.common.errors.RecordTooLargeException");

    @Test
    void saysWhereEachDeadLetterGoesWithItsErrorClassAndNoPayload() {
        assertThat(ReplayPrinter.line(new RecordReport("dlq-0@4", Outcome.REPLAYED, Optional.of("orders-1"),
                TOO_LARGE, Optional.empty()))).isEqualTo("dlq-0@4 -> orders-1  (RecordTooLargeException)");
        assertThat(ReplayPrinter.line(new RecordReport("dlq-0@5", Outcome.PARKED, Optional.of("dlq.parking"),
                TOO_LARGE, Optional.empty()))).isEqualTo("dlq-0@5 -> dlq.parking (parked)  (RecordTooLargeException)");
        assertThat(ReplayPrinter.line(new RecordReport("dlq-0@6", Outcome.SKIPPED_BY_FILTER, Optional.empty(),
                TOO_LARGE, Optional.empty()))).isEqualTo("dlq-0@6 skipped: not selected by the filters");
        assertThat(ReplayPrinter.line(new RecordReport("dlq-0@7", Outcome.SKIPPED_TRUNCATED, Optional.empty(),
                Optional.empty(), Optional.empty()))).isEqualTo("dlq-0@7 skipped: payload truncated (--force-truncated replays it)");
    }

    @Test
    void theDryRunsTableEndsWithTheOffsetsToPassAsUntil() {
        java.io.StringWriter text = new java.io.StringWriter();
        ReplayPrinter printer = new ReplayPrinter(new java.io.PrintWriter(text), false, true);

        printer.destinations(new DryRunReport(new TreeMap<>(Map.of("orders", 7L)), new TreeMap<>(),
                ReplayCounts.ZERO, true, new TreeMap<>(Map.of(1, 980L, 0, 1200L))));

        assertThat(text.toString()).contains("  orders  7")
                .contains("Read up to (replay exactly these with --until 0:1200,1:980)");
    }

    @Test
    void neverPrintsControlCharactersOfAForgedErrorClassHeader() {
        String forged = "X\r\u001b[2Kdlq-0@1 -> orders";

        String line = ReplayPrinter.line(new RecordReport("dlq-0@3", Outcome.REPLAYED, Optional.of("orders-1"),
                Optional.of(forged), Optional.empty()));

        assertThat(line).isEqualTo("dlq-0@3 -> orders-1  (error class not a Java class name)");
        assertThat(line.chars().filter(Character::isISOControl)).isEmpty();
    }

    @Test
    void saysWhyADeadLetterIsUnroutableOrRefusedNamingTheHeaderOrSettingNotItsValue() {
        assertThat(ReplayPrinter.line(new RecordReport("dlq-0@8", Outcome.SKIPPED_UNROUTABLE, Optional.empty(),
                TOO_LARGE, Optional.of("__quarantine.target.partition is not a number from 0 to 2147483647"))))
                .isEqualTo("dlq-0@8 skipped, no destination: __quarantine.target.partition is not a number from 0 to"
                        + " 2147483647  (RecordTooLargeException)");
        assertThat(ReplayPrinter.line(new RecordReport("dlq-0@9", Outcome.REFUSED_DESTINATION,
                Optional.of("__consumer_offsets"), Optional.empty(), Optional.of("is a Kafka-internal topic"))))
                .isEqualTo("dlq-0@9 refused: __consumer_offsets is a Kafka-internal topic");
        assertThat(ReplayPrinter.line(new RecordReport("dlq-0@10", Outcome.SKIPPED_ALREADY_REPLAYED,
                Optional.empty(), Optional.empty(), Optional.empty())))
                .isEqualTo("dlq-0@10 skipped: a finished replay already wrote it (--replay-again replays it)");
    }

    @Test
    void theBarShowsTheShareOfTheRangeReadAndTheCounts() {
        ReplayProgress half = new ReplayProgress("r", "dlq", Uuid.ZERO_UUID, ReplayState.RUNNING,
                new TreeMap<>(Map.of(0, 0L)), new TreeMap<>(Map.of(0, 200L)), new TreeMap<>(Map.of(0, 100L)),
                new ReplayCounts(90, 5, 1, 2, 1, 1, 3, 4), WrittenOffsets.NONE, Instant.EPOCH, Instant.EPOCH);

        assertThat(ReplayPrinter.bar(half)).isEqualTo("[" + "#".repeat(20) + ".".repeat(20)
                + "] 50%  replayed 90, again 5, parked 1, skipped 8, refused 3");
    }
}
