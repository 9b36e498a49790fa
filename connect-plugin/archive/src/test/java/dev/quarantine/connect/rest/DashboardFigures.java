package dev.quarantine.connect.rest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/** What the dashboard should show for a JSON answer of the monitor, in the words of {@link DashboardPage}. */
final class DashboardFigures {

    private DashboardFigures() {
    }

    /** Per topic of {@code GET /dead-letters}: total, rate 1 min, rate 15 min, last seen. */
    static Map<String, List<String>> overview(JsonNode summary) {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        summary.path("topics").forEach(t -> rows.put(t.path("topic").asText(), List.of(t.path("total").asText(),
                rate(t.path("rate_1m")), rate(t.path("rate_15m")), time(t.path("last_seen")))));
        return rows;
    }

    /** A breakdown ({@code by_...}): name to count, largest first like the bars. */
    static Map<String, String> counts(JsonNode breakdown) {
        Map<String, String> counts = new LinkedHashMap<>();
        breakdown.fields().forEachRemaining(e -> counts.put(e.getKey(), e.getValue().asText()));
        return counts;
    }

    /**
     * Per record of {@code /records}: its position to its format, origin, error class, connector (with task and
     * stage).
     */
    static Map<String, List<String>> records(JsonNode answer) {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        answer.path("records").forEach(r -> {
            String connector = text(r.path("connector_or_application"))
                    + (r.path("task").isNull() ? "" : " · task " + r.path("task").asText())
                    + (r.path("stage").isNull() ? "" : " · " + r.path("stage").asText());
            JsonNode original = r.path("original");
            String origin = !original.path("position").isNull() ? original.path("position").asText()
                    : original.path("topic").isNull() ? "(unknown)" : original.path("topic").asText()
                    + " (position unknown)";
            rows.put(r.path("position").asText(), List.of(text(r.path("format")), origin, text(r.path("error_class")),
                    connector));
        });
        return rows;
    }

    private static String text(JsonNode value) {
        return value.isNull() || value.isMissingNode() ? "(unknown)" : value.asText();
    }

    private static String rate(JsonNode perSecond) {
        return String.format(Locale.ROOT, "%.3f/s", perSecond.asDouble());
    }

    private static String time(JsonNode iso) {
        return iso.isNull() ? "never" : iso.asText().replace('T', ' ').replaceAll("\\.\\d+Z$|Z$", " UTC");
    }
}
