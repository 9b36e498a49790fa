package dev.quarantine.txn.progress;

import static dev.quarantine.txn.progress.TestFormats.FORMAT;
import static dev.quarantine.txn.progress.TestFormats.withTombstones;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** The read rules of {@link CompactedTopicReader}, row by row, on a {@link FakeTopicLog}. */
class CompactedTopicReaderTest {

    private static final TopicPartition P0 = new TopicPartition("progress", 0);
    private static final TopicPartition P1 = new TopicPartition("progress", 1);

    private final FakeTopicLog log = new FakeTopicLog();
    private final CompactedTopicReader reader = new CompactedTopicReader(log);

    private Map<String, String> read(ReadEnd end, TopicPartition... partitions) {
        return reader.read(List.of(partitions), end, FORMAT, Instant.now().plusSeconds(30));
    }

    @Test
    void theLastRecordOfAKeyWinsAcrossPolls() {
        log.append(P0, "a", "v=1").append(P0, "b", "v=1").append(P0, "a", "v=2").append(P0, "c", "v=1")
                .append(P0, "a", "v=3");

        assertThat(read(ReadEnd.HIGH_WATERMARK, P0)).containsExactlyInAnyOrderEntriesOf(
                Map.of("a", "3", "b", "1", "c", "1"));
        assertThat(log.polls).as("the rows span several polls").isGreaterThan(1);
    }

    @Test
    void aTombstoneDeletesItsKeyAndALaterRecordBringsItBack() {
        log.append(P0, "a", "v=1").append(P0, "b", "v=1").append(P0, "a", null).append(P0, "b", null)
                .append(P0, "b", "v=2");

        assertThat(read(ReadEnd.HIGH_WATERMARK, P0)).containsExactlyInAnyOrderEntriesOf(Map.of("b", "2"));
    }

    @Test
    void aTombstoneGoesToItsFormatWithItsPositionAndTheFormatMayKeepAValueForIt() {
        log.append(P0, "a", "v=1").append(P0, "b", "v=1").append(P0, "a", null).append(P0, "b", null);
        List<String> seen = new ArrayList<>();
        KeyedFormat<String> resets = withTombstones((key, position) -> {
            seen.add(key + " " + position);
            return key.equals("a") ? Optional.of("reset at " + position) : Optional.empty();
        });

        assertThat(reader.read(List.of(P0), ReadEnd.HIGH_WATERMARK, resets, Instant.now().plusSeconds(30)))
                .containsExactlyInAnyOrderEntriesOf(Map.of("a", "reset at progress-0@2"));
        assertThat(seen).containsExactly("a progress-0@2", "b progress-0@3");
    }

    @Test
    void aTombstoneItsFormatRefusesIsRefusedNamingItsTopicPartitionAndOffset() {
        log.append(P0, "a", "v=1").append(P0, "a", null);
        KeyedFormat<String> neverDeleted = withTombstones((key, position) -> {
            throw new IllegalArgumentException("a tombstone under " + key);
        });

        UnreadableRecordException refused = catchThrowableOfType(() -> reader.read(List.of(P0),
                ReadEnd.HIGH_WATERMARK, neverDeleted, Instant.now().plusSeconds(30)), UnreadableRecordException.class);

        assertThat(refused).hasMessageContaining("progress-0@1");
    }

    @Test
    void aRecordTheFormatDoesNotKeepDeletesTheEarlierStateOfItsKey() {
        log.append(P0, "a", "v=1").append(P0, "a", "v=drop").append(P0, "b", "v=1");
        KeyedFormat<String> dropping = (key, value, position) -> FORMAT.read(key, value, position)
                .filter(v -> !v.equals("drop"));

        assertThat(reader.read(List.of(P0), ReadEnd.HIGH_WATERMARK, dropping, Instant.now().plusSeconds(30)))
                .containsExactlyInAnyOrderEntriesOf(Map.of("b", "1"));
    }

    @Test
    void recordsWithoutAKeyArePassedOverUnread() {
        log.append(P0, null, "not a state").append(P0, "a", "v=1");

        assertThat(read(ReadEnd.HIGH_WATERMARK, P0)).containsExactlyInAnyOrderEntriesOf(Map.of("a", "1"));
    }

    @Test
    void aRecordOfAnUnknownFormatIsRefusedNamingItsTopicPartitionAndOffset() {
        log.append(P0, "a", "v=1").append(P0, "b", "format=9").append(P0, "b", "v=2");

        UnreadableRecordException refused = catchThrowableOfType(() -> read(ReadEnd.HIGH_WATERMARK, P0),
                UnreadableRecordException.class);

        assertThat(refused.position()).isEqualTo("progress-0@1");
        assertThat(refused).hasMessage("The record progress-0@1 cannot be read: unknown format")
                .hasCauseInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anotherErrorOfTheFormatEndsTheReadAsItIs() {
        log.append(P0, "a", "v=1");
        ConfigException limit = new ConfigException("too many");

        Throwable thrown = catchThrowableOfType(() -> reader.read(List.of(P0), ReadEnd.HIGH_WATERMARK,
                (key, value, position) -> {
                    throw limit;
                }, Instant.now().plusSeconds(30)), ConfigException.class);

        assertThat(thrown).isSameAs(limit);
    }

    @Test
    void theHighWatermarkIsTakenUncommittedAndAReadHeldBackByAnOpenTransactionFailsNamingPartitionAndEnd() {
        log.append(P0, "a", "v=1").openTransaction(P0, 3).append(P0, "b", "v=1");

        ReadHeldBackException held = catchThrowableOfType(() -> reader.read(List.of(P0), ReadEnd.HIGH_WATERMARK,
                FORMAT, Instant.now().plusMillis(300)), ReadHeldBackException.class);

        assertThat(log.endsTaken).containsExactly(IsolationLevel.READ_UNCOMMITTED);
        assertThat(held.stoppedAt()).isEqualTo(Map.of(P0, 1L));
        assertThat(held.end()).isEqualTo(Map.of(P0, 5L));
        assertThat(held).hasMessageStartingWith("Read progress-0 up to offset 1 of 5 (the high watermark when the read"
                + " started) by the deadline: a transaction still open there holds the rest back");
        assertThat(held).as("retriable").isInstanceOf(org.apache.kafka.common.errors.RetriableException.class);
    }

    @Test
    void theLastStableOffsetAnswersWhatLiesBeforeAnOpenTransactionWithoutWaiting() {
        log.append(P0, "a", "v=1").append(P0, "b", "v=1").openTransaction(P0, 2).append(P0, "a", "v=2");

        assertThat(read(ReadEnd.LAST_STABLE_OFFSET, P0)).containsExactlyInAnyOrderEntriesOf(
                Map.of("a", "1", "b", "1"));
        assertThat(log.endsTaken).containsExactly(IsolationLevel.READ_COMMITTED);
    }

    @Test
    void everyPartitionIsReadUpToItsOwnEndAndEmptyOnesNotAtAll() {
        TopicPartition empty = new TopicPartition("progress", 2);
        log.append(P0, "a", "v=1").append(P1, "x", "v=1").append(P1, "y", "v=1").append(P1, "x", "v=2");

        assertThat(read(ReadEnd.HIGH_WATERMARK, P0, P1, empty)).containsExactlyInAnyOrderEntriesOf(
                Map.of("a", "1", "x", "2", "y", "1"));
    }

    @Test
    void aTopicWithoutRecordsIsAnsweredWithoutPolling() {
        assertThat(read(ReadEnd.HIGH_WATERMARK, P0)).isEmpty();
        assertThat(reader.read(List.of(), ReadEnd.HIGH_WATERMARK, FORMAT, Instant.now().plusSeconds(30))).isEmpty();
        assertThat(log.polls).isZero();
    }

    @Test
    void closingTheReaderClosesItsConsumer() {
        reader.close();

        assertThat(log.closed).isTrue();
    }

    @Test
    void theDeadlineIsNeverTakenForTheEndOfARead() {
        log.append(P0, "a", "v=1");

        Throwable late = catchThrowableOfType(() -> reader.read(List.of(P0), ReadEnd.LAST_STABLE_OFFSET, FORMAT,
                Instant.now().minus(Duration.ofSeconds(1))), ReadHeldBackException.class);

        assertThat(late).as("a read out of time fails, however little was left").isNotNull();
    }
}
