package dev.quarantine.replay.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import dev.quarantine.replay.DryRunReport;
import dev.quarantine.replay.FakeTime;
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
        ReplayPrinter printer = new ReplayPrinter(new java.io.PrintWriter(text), false, true, new FakeTime());

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
    void theProgressLineShowsTheOffsetsReadOfTheRangeTheRateOfThisRunTheTimeLeftAndTheCounts() {
        FakeTime time = new FakeTime();
        ProgressLine line = new ProgressLine(time, progress(40, ReplayCounts.ZERO));

        assertThat(line.of(progress(40, ReplayCounts.ZERO))).as("no rate before any time passed")
                .isEqualTo("[" + "#".repeat(6) + ".".repeat(24) + "] 40/200 (20%)  --/s  ETA --  replayed 0, again 0,"
                        + " parked 0, skipped 0, refused 0");
        time.advance(Duration.ofSeconds(4));
        assertThat(line.of(progress(100, new ReplayCounts(50, 5, 1, 2, 1, 1, 3, 4))))
                .as("60 read in 4 s: 15.0 a second, the 100 left in 6.67 s; the 40 read by an earlier run not counted")
                .isEqualTo("[" + "#".repeat(15) + ".".repeat(15) + "] 100/200 (50%)  15.0/s  ETA 0:00:07  replayed"
                        + " 50, again 5, parked 1, skipped 8, refused 3");
        time.advance(Duration.ofHours(2));
        assertThat(line.of(progress(150, ReplayCounts.ZERO))).as("110 in 7204 s")
                .contains("] 150/200 (75%)  0.02/s  ETA 0:54:35");
        assertThat(line.of(progress(200, ReplayCounts.ZERO))).contains("] 200/200 (100%)").contains("ETA 0:00:00");
    }

    @Test
    void theProgressLineIsUpdatedInPlaceOnlyWhenAskedForAndLeftOutOfADryRun() {
        FakeTime time = new FakeTime();
        StringWriter shown = new StringWriter();
        ReplayPrinter terminal = new ReplayPrinter(new PrintWriter(shown), true, false, time);
        terminal.started(progress(0, ReplayCounts.ZERO));
        time.advance(Duration.ofSeconds(10));
        terminal.progress(progress(1000 - 800, ReplayCounts.ZERO));
        terminal.progress(progress(200, ReplayCounts.ZERO));
        String[] updates = shown.toString().split("\r", -1);
        assertThat(updates).hasSize(3);
        assertThat(updates[1]).contains("200/200").contains("20.0/s").doesNotContain("\n");
        assertThat(updates[2]).as("the same line again, written over the first").hasSameSizeAs(updates[1]);

        for (boolean dryRun : new boolean[] {false, true}) {
            StringWriter other = new StringWriter();
            ReplayPrinter printer = new ReplayPrinter(new PrintWriter(other), dryRun, dryRun, time);
            printer.started(progress(0, ReplayCounts.ZERO));
            printer.progress(progress(100, ReplayCounts.ZERO));
            assertThat(other.toString()).as(dryRun ? "a dry run on a terminal" : "a pipe").isNotEmpty()
                    .doesNotContain("\r").doesNotContain("/s");
        }
    }

    private static ReplayProgress progress(long read, ReplayCounts counts) {
        return new ReplayProgress("r", "dlq", Uuid.ZERO_UUID, ReplayState.RUNNING,
                new TreeMap<>(Map.of(0, 0L, 1, 0L)), new TreeMap<>(Map.of(0, 100L, 1, 100L)),
                new TreeMap<>(Map.of(0, Math.min(read, 100L), 1, Math.max(0, read - 100))), counts,
                WrittenOffsets.NONE, Instant.EPOCH, Instant.EPOCH);
    }
}
