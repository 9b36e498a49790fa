package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import dev.quarantine.txn.DeadLetterHeaders;

class ViewsTest {

    @Test
    void saysWhenTheFiguresLackOtherWorkersShares() {
        Partial figures = new Partial();
        figures.partitions().add(0);
        figures.missing().addAll(List.of(1, 2));

        Map<String, Object> summary = Views.summary(new TreeSet<>(List.of("dlq")), figures, 0);

        assertThat(summary).containsEntry("complete", false).containsEntry("missing_partitions", new TreeSet<>(
                List.of(1, 2)));
        assertThat((String) summary.get("incomplete_because")).contains(MonitorConfig.PEER_SECRET_CONFIG);
    }

    @Test
    void showsTopicsOverTheCapApartAndNotAsATopic() {
        Partial figures = new Partial();
        TopicStats over = new TopicStats();
        over.addUncounted("dlq-c", 1_000);
        over.addUncounted("dlq-c", 2_000);
        figures.addStats(DeadLetterProcessor.OVER_CAP, over);

        Map<String, Object> summary = Views.summary(new TreeSet<>(List.of("dlq-a")), figures, 0);

        assertThat(summary).containsEntry("complete", true).containsEntry("capped", Map.of("records_not_kept", 2L,
                "topics_not_kept", over.byOriginalTopic().keySet()));
        assertThat(summary.get("topics").toString()).doesNotContain(DeadLetterProcessor.OVER_CAP);
        assertThat(Views.detail("dlq-c", figures, 0)).containsEntry("capped", Map.of("records_not_kept", 2L));
    }

    @Test
    void showsErrorMessagesAndPayloadsOnlyWhenExposedAndAtMostTheLimit() {
        RecordHeaders headers = new RecordHeaders();
        headers.add(DeadLetterHeaders.CONNECT_EXCEPTION, bytes("E"));
        headers.add(DeadLetterHeaders.CONNECT_EXCEPTION_MESSAGE, bytes("value 'secret' is bad"));
        Partial exposed = new Partial();
        Partial hidden = new Partial();
        for (int offset = 0; offset < 3; offset++) {
            exposed.records().add(DeadLetterRecord.parse("dlq", 0, offset, 1_000L + offset, bytes("k"),
                    bytes("secret"), headers, null, true, 100));
            hidden.records().add(DeadLetterRecord.parse("dlq", 0, offset, 1_000L + offset, bytes("k"),
                    bytes("secret"), headers, null, false, 100));
        }

        String shown = Views.records("dlq", exposed, true, 2).toString();
        String kept = Views.records("dlq", hidden, false, 2).toString();

        assertThat(((List<?>) Views.records("dlq", exposed, true, 2).get("records"))).hasSize(2);
        assertThat(shown).contains("error_message=value 'secret' is bad", "value_base64=");
        assertThat(kept).contains("error_class=E").doesNotContain("secret", "error_message", "value_base64");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
