package dev.quarantine.compat.connect;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.ConnectRest.Answer;
import dev.quarantine.sandbox.LocalConnect;

/** What a test asks a worker: the monitor's answers (any status), and the plugin's ERROR lines in its log. */
final class WorkerProbe {

    private static final Duration DEADLINE = Duration.ofMinutes(2);

    private WorkerProbe() {
    }

    static JsonNode awaitMonitorCount(LocalConnect connect, String topic, long total) {
        JsonNode[] last = {null};
        Await.until(() -> "GET /dead-letters/" + topic + " counting " + total + "; last answer " + last[0], DEADLINE,
                () -> {
            Answer answer = get(connect, "/dead-letters/" + topic);
            last[0] = answer.status() == 200 ? answer.body() : null;
            return last[0] != null && last[0].path("total").asLong() == total;
        });
        return last[0];
    }

    static List<String> errorLines(LocalConnect connect) throws IOException {
        return Files.readAllLines(connect.logFile()).stream()
                .filter(line -> line.contains(" ERROR dev.quarantine")).toList();
    }

    static Answer get(LocalConnect connect, String path) {
        return connect.rest().get(path);
    }
}
