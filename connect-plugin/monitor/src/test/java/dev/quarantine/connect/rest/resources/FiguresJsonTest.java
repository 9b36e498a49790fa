package dev.quarantine.connect.rest.resources;

import static dev.quarantine.sandbox.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import dev.quarantine.sandbox.TextHeaders;
import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.connect.rest.aggregation.DeadLetterProcessor;
import dev.quarantine.connect.rest.aggregation.DeadLetterRecord;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.aggregation.PartitionFigures;
import dev.quarantine.connect.rest.aggregation.TopicStats;

@SuppressWarnings("unchecked")
class FiguresJsonTest {

    @Test
    void saysWhenTheFiguresLackOtherWorkersShares() {
        PartitionFigures figures = new PartitionFigures();
        figures.partitions().add(0);
        figures.missing().addAll(List.of(1, 2));

        Map<String, Object> summary = FiguresJson.summary(new TreeSet<>(List.of("dlq")), figures, 0);

        assertThat(summary).containsEntry("complete", false).containsEntry("missing_partitions", new TreeSet<>(
                List.of(1, 2)));
        assertThat((String) summary.get("incomplete_because")).contains(MonitorConfig.PEER_SECRET_CONFIG);
    }

    @Test
    void showsTopicsOverTheCapApartAndNotAsATopic() {
        PartitionFigures figures = new PartitionFigures();
        TopicStats over = new TopicStats();
        over.addUncounted("dlq-c", 1_000);
        over.addUncounted("dlq-c", 2_000);
        figures.addStats(DeadLetterProcessor.OVER_CAP, over);

        Map<String, Object> summary = FiguresJson.summary(new TreeSet<>(List.of("dlq-a")), figures, 0);

        assertThat(summary).containsEntry("complete", true).containsEntry("capped", Map.of("records_not_kept", 2L,
                "topics_not_kept", over.byOriginalTopic().keySet()));
        assertThat(summary.get("topics").toString()).doesNotContain(DeadLetterProcessor.OVER_CAP);
        assertThat(FiguresJson.detail("dlq-c", figures, 0)).containsEntry("capped", Map.of("records_not_kept", 2L));
    }

    @Test
    void showsErrorMessagesAndPayloadsOnlyWhenExposedAndAtMostTheLimit() {
        RecordHeaders headers = TextHeaders.of(DeadLetterHeaders.CONNECT_EXCEPTION, "E",
                DeadLetterHeaders.CONNECT_EXCEPTION_MESSAGE, "value 'secret' is bad");
        PartitionFigures exposed = new PartitionFigures();
        PartitionFigures hidden = new PartitionFigures();
        for (int offset = 0; offset < 3; offset++) {
            exposed.records().add(DeadLetterRecord.parse("dlq", 0, offset, 1_000L + offset, bytes("k"),
                    bytes("secret"), headers, null, true, 100));
            hidden.records().add(DeadLetterRecord.parse("dlq", 0, offset, 1_000L + offset, bytes("k"),
                    bytes("secret"), headers, null, false, 100));
        }

        String shown = FiguresJson.records("dlq", exposed, true, 2).toString();
        String kept = FiguresJson.records("dlq", hidden, false, 2).toString();

        assertThat(((List<?>) FiguresJson.records("dlq", exposed, true, 2).get("records"))).hasSize(2);
        assertThat(shown).contains("error_message=value 'secret' is bad", "value_base64=");
        assertThat(kept).contains("error_class=E").doesNotContain("secret", "error_message", "value_base64");
    }

    @Test
    void summaryCarriesEachTopicsPerMinuteCountsForItsSparkline() {
        PartitionFigures figures = new PartitionFigures();
        TopicStats stats = new TopicStats();
        figures.addStats("dlq-a", stats);
        figures.addMinute("dlq-a", 120_000, 4);
        figures.addMinute("dlq-a", 180_000, 2);

        Map<String, Object> row = (Map<String, Object>) ((List<?>) FiguresJson.summary(new TreeSet<>(List.of("dlq-a",
                "dlq-b")), figures, 200_000).get("topics")).get(0);
        Map<String, Object> quiet = (Map<String, Object>) ((List<?>) FiguresJson.summary(new TreeSet<>(List.of("dlq-a",
                "dlq-b")), figures, 200_000).get("topics")).get(1);

        assertThat(row.get("per_minute")).isEqualTo(List.of(
                Map.of("start", "1970-01-01T00:02:00Z", "count", 4L), Map.of("start", "1970-01-01T00:03:00Z", "count", 2L)));
        assertThat(row.get("per_minute")).isEqualTo(FiguresJson.detail("dlq-a", figures, 200_000).get("per_minute"));
        assertThat(quiet).containsEntry("topic", "dlq-b").containsEntry("per_minute", List.of());
    }

    @Test
    void recordsNameTheirOwnAndTheirOriginalPositionThroughTheOneFormatter() {
        RecordHeaders headers = TextHeaders.of(DeadLetterHeaders.CONNECT_TOPIC, "orders",
                DeadLetterHeaders.CONNECT_PARTITION, "3", DeadLetterHeaders.CONNECT_OFFSET, "1042");
        PartitionFigures figures = new PartitionFigures();
        figures.records().add(DeadLetterRecord.parse("dlq", 1, 7, 1_000L, null, null, headers, null, false, 100));
        figures.records().add(DeadLetterRecord.parse("dlq", 0, 8, 900L, null, null, new RecordHeaders(), null, false,
                100));

        List<?> rows = (List<?>) FiguresJson.records("dlq", figures, false, 2).get("records");
        Map<String, Object> known = (Map<String, Object>) rows.get(0);
        Map<String, Object> unknown = (Map<String, Object>) rows.get(1);

        assertThat(known).containsEntry("position", "dlq-1@7");
        assertThat((Map<String, Object>) known.get("original")).containsEntry("position", "orders-3@1042");
        assertThat((Map<String, Object>) unknown.get("original")).containsEntry("position", null);
    }
}
