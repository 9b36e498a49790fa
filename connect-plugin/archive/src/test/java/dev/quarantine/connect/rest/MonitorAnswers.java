package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.ConnectRest.Answer;
import dev.quarantine.sandbox.LocalConnect;

/**
 * The monitor's JSON answers as the worker tests read them: a 200 once the monitor is ready, a topic's total once
 * counted, a breakdown's counts.
 */
final class MonitorAnswers {

    private MonitorAnswers() {
    }

    /**
     * The body of a 200 answer to {@code path}, asking again while the monitor answers 503, for up to
     * {@code settled}.
     */
    static JsonNode ok(LocalConnect worker, String path, Duration settled) {
        Answer[] last = new Answer[1];
        Await.until(() -> "an answer other than 503 to GET " + path + "; last: " + last[0], settled, () -> {
            last[0] = worker.rest().get(path);
            return last[0].status() != 503;
        });
        assertThat(last[0].status()).as("GET %s: %s", path, last[0].text()).isEqualTo(200);
        return last[0].body();
    }

    /**
     * The body of the answer to {@code GET /dead-letters/{dlq}} once it counts {@code total} dead letters, asking
     * again for up to {@code settled}.
     */
    static JsonNode awaitTotal(LocalConnect worker, String dlq, long total, Duration settled) {
        Answer[] last = new Answer[1];
        Await.until(() -> total + " dead letters of " + dlq + " on " + worker.restUrl() + "; last: " + last[0],
                settled, () -> {
                    last[0] = worker.rest().get("/dead-letters/" + dlq);
                    return last[0].status() == 200 && last[0].body().path("total").asLong() == total;
                });
        return last[0].body();
    }

    /** A breakdown ({@code by_...}): name to count. */
    static Map<String, Long> counts(JsonNode breakdown) {
        Map<String, Long> counts = new HashMap<>();
        breakdown.fields().forEachRemaining(e -> counts.put(e.getKey(), e.getValue().asLong()));
        return counts;
    }
}
