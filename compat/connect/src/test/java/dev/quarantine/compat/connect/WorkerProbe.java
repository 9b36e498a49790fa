package dev.quarantine.compat.connect;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.quarantine.sandbox.LocalConnect;

/** What a test asks a worker: the monitor's answers (any status), and the plugin's ERROR lines in its log. */
final class WorkerProbe {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration DEADLINE = Duration.ofMinutes(2);

    private WorkerProbe() {
    }

    static JsonNode awaitMonitorCount(LocalConnect connect, String topic, long total) {
        JsonNode[] last = {null};
        LocalConnect.await(DEADLINE, () -> {
            HttpResponse<String> answer = get(connect, "/dead-letters/" + topic);
            last[0] = answer.statusCode() == 200 ? read(answer.body()) : null;
            return last[0] != null && last[0].path("total").asLong() == total;
        }, () -> "GET /dead-letters/" + topic + " counting " + total + "; last answer " + last[0]);
        return last[0];
    }

    static List<String> errorLines(LocalConnect connect) throws IOException {
        return Files.readAllLines(connect.logFile()).stream()
                .filter(line -> line.contains(" ERROR dev.quarantine")).toList();
    }

    static HttpResponse<String> get(LocalConnect connect, String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(connect.restUrl() + path))
                    .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("GET " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during GET " + path, e);
        }
    }

    private static JsonNode read(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new IllegalStateException("not JSON: " + body, e);
        }
    }
}
