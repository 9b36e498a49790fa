package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.quarantine.connect.HttpRequests;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.ConnectRest;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.connect.rest.replays.ReplayIds;

/**
 * The monitor's request hygiene on a real worker JVM loading the plugin archive, behind Kafka's basic-auth REST
 * extension: a page of another site cannot start a replay with the operator's credentials (403, 415), a body over the
 * limit is refused before it is read whole (413), answers are not cached, text the caller sends is logged escaped,
 * and the worker's own endpoints are left exactly as they are. Every refused request is checked to have started
 * nothing: the worker then holds no replay connector it did not hold before.
 */
@ExtendWith(LocalKafkaExtension.class)
class MonitorRequestGuardIT {

    private static final String PREFIX = "guard-" + Long.toHexString(System.nanoTime()).substring(6);
    private static final String DLQ = PREFIX + "-dlq";
    private static final String REPLAYS = "/dead-letters/" + DLQ + "/replays";
    /** A name the operator allows browsers to reach the worker under (a load balancer's, say). */
    private static final String ALLOWED_HOST = "dashboard.test";
    private static final String AUTH = ConnectRest.basicAuth(BasicAuthWorkers.USER, BasicAuthWorkers.PASSWORD);
    private static final Duration SETTLED = Duration.ofSeconds(120);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static LocalKafka kafka;
    private static LocalConnect worker;

    @BeforeAll
    static void startAWorkerMonitoringAnEmptyDeadLetterTopic(LocalKafka localKafka) {
        kafka = localKafka;
        kafka.createTopic(DLQ, 1, Map.of());
        worker = BasicAuthWorkers.monitoring(kafka, PREFIX, Map.of(
                MonitorConfig.TOPICS_CONFIG, DLQ,
                MonitorConfig.RETRY_AFTER_SECONDS_CONFIG, "1",
                MonitorConfig.ALLOWED_HOSTS_CONFIG, ALLOWED_HOST)).start();
        Await.until("the monitor answering for " + DLQ, SETTLED,
                () -> send("GET", "/dead-letters/" + DLQ, null, json()).statusCode() == 200);
    }

    @AfterAll
    static void stopWorker() {
        if (worker != null) {
            worker.close();
        }
    }

    @Test
    void aReplayRequestThatIsNotJsonIsRefusedWith415AndStartsNothing() {
        for (String type : List.of("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x")) {
            startsNothing(() -> {
                HttpResponse<String> answer = send("POST", REPLAYS, "{}", Map.of("Content-Type", type));

                assertThat(answer.statusCode()).as(type + ": " + answer.body()).isEqualTo(415);
                assertThat(body(answer).path("category").asText()).isEqualTo("UNSUPPORTED_MEDIA_TYPE");
                assertThat(body(answer).path("message").asText()).contains("application/json");
            });
        }
        startsNothing(() -> assertThat(send("POST", REPLAYS, null, Map.of()).statusCode())
                .as("a POST without body and without Content-Type").isEqualTo(415));
    }

    @Test
    void aReplayRequestFromAPageOfAnotherSiteIsRefusedWith403AndStartsNothing() {
        List<Map<String, String>> crossSite = List.of(
                Map.of("Content-Type", "application/json", "Origin", "https://evil.example"),
                Map.of("Content-Type", "application/json", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "cors"),
                Map.of("Content-Type", "application/json", "Origin", "http://127.0.0.1:1", "Sec-Fetch-Site",
                        "same-site"),
                // the request the issue measured answered 202
                Map.of("Content-Type", "text/plain", "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site",
                        "Sec-Fetch-Mode", "no-cors"));
        for (Map<String, String> headers : crossSite) {
            startsNothing(() -> {
                HttpResponse<String> answer = send("POST", REPLAYS, "{}", headers);

                assertThat(answer.statusCode()).as(headers + ": " + answer.body()).isEqualTo(403);
                assertThat(body(answer).path("category").asText()).isEqualTo("FORBIDDEN");
            });
        }
        HttpResponse<String> withoutCredentials = HttpRequests.send(worker.restUrl(), "POST", REPLAYS, "{}", Map.of(
                "Content-Type", "application/json", "Origin", "https://evil.example"));
        assertThat(withoutCredentials.statusCode()).as("refused before authentication").isEqualTo(403);
        Await.until("the refusal logged with its method and path", Duration.ofSeconds(30),
                () -> log().contains("(refused POST " + REPLAYS + ")"));
        HttpResponse<String> cancel = send("DELETE", REPLAYS + "/replay-000000000000", null,
                Map.of("Origin", "https://evil.example"));
        assertThat(cancel.statusCode()).as(cancel.body()).isEqualTo(403);
        HttpResponse<String> read = send("GET", "/dead-letters/" + DLQ + "/records", null,
                Map.of("Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "no-cors"));
        assertThat(read.statusCode()).as("a page of another site reading records: " + read.body()).isEqualTo(403);
    }

    @Test
    void aRequestUnderANameThatIsNotTheWorkersIsRefusedWith403AndStartsNothing() throws Exception {
        // DNS rebinding: evil.example resolves to the worker, so its page and the endpoint share an origin
        String rebound = "evil.example:" + URI.create(worker.restUrl()).getPort();
        Map<String, String> samePage = Map.of("Origin", "http://" + rebound, "Sec-Fetch-Site", "same-origin",
                "Sec-Fetch-Mode", "cors");

        startsNothing(() -> assertThat(statusUnder(rebound, "POST", REPLAYS, samePage,
                "{\"destination\":\"guard-replayed\"}")).as("a replay started by the rebinding page")
                .contains(" 403 "));
        String cancel = REPLAYS + "/replay-000000000000";
        assertThat(statusUnder(rebound, "DELETE", cancel, samePage, null)).as("a cancel").contains(" 403 ");
        assertThat(statusUnder(rebound, "GET", "/dead-letters/" + DLQ + "/records", Map.of("Sec-Fetch-Site",
                "same-origin", "Sec-Fetch-Mode", "cors"), null)).as("a read").contains(" 403 ");
        assertThat(statusUnder(rebound, "GET", "/dead-letters/" + DLQ + "/records", Map.of("Accept", "*/*",
                "User-Agent", "Mozilla/5.0"), null))
                .as("a read as a browser sends it over plain HTTP: a same-origin GET has no Origin, and no"
                        + " Sec-Fetch-* goes to an origin that is neither HTTPS nor localhost").contains(" 403 ");

        String allowed = ALLOWED_HOST + ":" + URI.create(worker.restUrl()).getPort();
        assertThat(statusUnder(allowed, "DELETE", cancel, Map.of("Origin", "http://" + allowed, "Sec-Fetch-Site",
                "same-origin", "Sec-Fetch-Mode", "cors"), null)).as("a name in " + MonitorConfig.ALLOWED_HOSTS_CONFIG)
                .doesNotContain(" 403 ");
        assertThat(statusUnder(rebound, "DELETE", cancel, Map.of(), null))
                .as("curl under a name that is not the worker's: refused too (a browser may send no Origin)")
                .contains(" 403 ");
        assertThat(statusUnder(allowed, "GET", "/dead-letters/" + DLQ, Map.of(), null))
                .as("curl under a name in " + MonitorConfig.ALLOWED_HOSTS_CONFIG).contains(" 200 ");
        assertThat(statusUnder("localhost:" + URI.create(worker.restUrl()).getPort(), "GET", "/dead-letters/" + DLQ,
                Map.of("Sec-Fetch-Site", "same-origin", "Sec-Fetch-Mode", "cors"), null)).as("localhost")
                .contains(" 200 ");
    }

    @Test
    void theWorkersOwnPageStartsAndCancelsAReplay() {
        Map<String, String> browser = Map.of("Origin", worker.restUrl(), "Sec-Fetch-Site", "same-origin",
                "Sec-Fetch-Mode", "cors", "Content-Type", "application/json;charset=UTF-8");

        // a named destination: a replay to "original" needs the worker's allow-list, which this worker does not set
        HttpResponse<String> started = send("POST", REPLAYS, "{\"destination\":\"guard-replayed\"}", browser);

        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        String id = body(started).path("id").asText();
        assertThat(replayConnectors()).contains(id);
        HttpResponse<String> cancelled = send("DELETE", REPLAYS + "/" + id, null, Map.of("Origin", worker.restUrl(),
                "Sec-Fetch-Site", "same-origin", "Sec-Fetch-Mode", "cors"));
        assertThat(cancelled.statusCode()).as("a DELETE without body: " + cancelled.body()).isEqualTo(200);
        assertThat(body(cancelled).path("state").asText()).as("an empty topic's replay may be done already")
                .isIn("CANCELLED", "DONE");
        assertThat(replayConnectors()).doesNotContain(id);
        HttpResponse<String> navigation = send("GET", "/dead-letters/ui", null, Map.of("Sec-Fetch-Site", "cross-site",
                "Sec-Fetch-Mode", "navigate"));
        assertThat(navigation.statusCode()).as("a link to the dashboard from another site").isEqualTo(200);
    }

    @Test
    void aBodyAnnouncedOverTheLimitIsRefusedWith413BeforeItIsSent() {
        startsNothing(() -> {
            try (Socket socket = connect()) {
                // the head only: a worker that waited for the 10 MB body would never answer
                socket.getOutputStream().write(head("POST", REPLAYS, "Content-Length: 10000000").getBytes(
                        StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();

                assertThat(statusLine(socket)).isEqualTo("HTTP/1.1 413 Payload Too Large");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @Test
    void aChunkedBodyIsCutAtTheLimitNotReadWhole() throws Exception {
        long total = 1L << 30; // 1 GiB, more than the worker's heap
        AtomicLong sent = new AtomicLong();
        AtomicBoolean answered = new AtomicBoolean();
        Set<String> before = replayConnectors();
        String status;
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            out.write(head("POST", REPLAYS, "Transfer-Encoding: chunked").getBytes(StandardCharsets.US_ASCII));
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                byte[] chunk = ("10000\r\n" + " ".repeat(0x10000) + "\r\n").getBytes(StandardCharsets.US_ASCII);
                try {
                    while (!answered.get() && sent.get() < total) {
                        out.write(chunk);
                        sent.addAndGet(0x10000);
                    }
                } catch (IOException closedByTheWorker) {
                    // expected: the worker closes the connection once it has answered
                }
            });
            status = statusLine(socket);
            answered.set(true);
            socket.shutdownInput();
            writer.get(60, TimeUnit.SECONDS);
        }

        assertThat(status).isEqualTo("HTTP/1.1 413 Payload Too Large");
        assertThat(sent.get()).as("bytes sent before the worker stopped reading").isLessThan(64L << 20);
        assertThat(replayConnectors()).isEqualTo(before);
    }

    @Test
    void monitorAnswersAreNeverCached() {
        for (String path : List.of("/dead-letters", "/dead-letters/" + DLQ, "/dead-letters/" + DLQ + "/records",
                "/dead-letters/no-such-topic/records", "/dead-letters/ui")) {
            HttpResponse<String> answer = send("GET", path, null, json());

            assertThat(answer.headers().firstValue("Cache-Control")).as(path + " " + answer.statusCode())
                    .hasValue("no-store");
        }
        assertThat(send("POST", REPLAYS, "{}", Map.of("Content-Type", "text/plain")).headers()
                .firstValue("Cache-Control")).as("a refusal").hasValue("no-store");
    }

    @Test
    void textTheCallerSendsIsLoggedEscaped() {
        String mark = "FORGED-" + Long.toHexString(System.nanoTime());

        // Jetty itself refuses a path holding encoded control characters (400); a query parameter and a body reach
        // the monitor
        HttpResponse<String> query = send("GET", "/dead-letters/" + DLQ + "/records?limit=1%0D%0A" + mark + "%1Bquery",
                null, json());
        HttpResponse<String> body = send("POST", REPLAYS, "{\"x\\r\\n" + mark + "\\tbody\": 1}",
                Map.of("Content-Type", "application/json"));

        assertThat(query.statusCode()).as(query.body()).isEqualTo(400);
        assertThat(body.statusCode()).as(body.body()).isEqualTo(400);
        Await.until(() -> "both requests logged in " + worker.logFile() + "; lines with " + mark + ": "
                + log().lines().filter(line -> line.contains(mark)).toList(), Duration.ofSeconds(30),
                () -> log().contains(mark + "\\u001Bquery") && log().contains(mark + "\\tbody"));
        String log = log();
        assertThat(log).contains("'1\\r\\n" + mark + "\\u001Bquery'", "'x\\r\\n" + mark + "\\tbody'");
        assertThat(log.lines().filter(line -> line.startsWith(mark))).as("lines the caller forged").isEmpty();
        assertThat(log).doesNotContain("\u001B");
    }

    @Test
    void theWorkersOwnEndpointsAreLeftAsTheyAre() {
        String name = PREFIX + "-own";
        for (String topic : List.of(PREFIX + "-in", "copy." + PREFIX + "-in", PREFIX + "-own-dlq")) {
            kafka.createTopic(topic, 1, Map.of());
        }
        Map<String, String> config = new LinkedHashMap<>(Map.of(
                "connector.class", "dev.quarantine.connect.sink.TransactionalKafkaSinkConnector",
                "tasks.max", "1",
                "topics", PREFIX + "-in",
                "target.bootstrap.servers", kafka.bootstrapServers(),
                "target.topic.format", "copy.${topic}",
                "dlq.topic.name", PREFIX + "-own-dlq"));
        config.put("consumer.override.isolation.level", "read_committed"); // the sink refuses a config without it
        config.put("padding", "p".repeat(100_000)); // over the monitor's body limit
        Map<String, Object> request = Map.of("name", name, "config", config, "initial_state", "STOPPED");
        Map<String, String> crossSite = Map.of("Content-Type", "application/json", "Origin", "https://evil.example",
                "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "cors");

        HttpResponse<String> created = send("POST", "/connectors", write(request), crossSite);
        HttpResponse<String> listed = send("GET", "/connectors", null, crossSite);
        HttpResponse<String> deleted = send("DELETE", "/connectors/" + name, null, crossSite);

        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(listed.statusCode()).isEqualTo(200);
        assertThat(listed.body()).contains(name);
        assertThat(listed.headers().firstValue("Cache-Control")).isEmpty();
        assertThat(deleted.statusCode()).as(deleted.body()).isIn(200, 204);
    }

    /** Runs {@code refused} and checks that the worker holds no replay connector it did not hold before. */
    private static void startsNothing(Runnable refused) {
        Set<String> before = replayConnectors();
        refused.run();
        assertThat(replayConnectors()).isEqualTo(before);
    }

    private static Set<String> replayConnectors() {
        Set<String> replays = new TreeSet<>();
        worker.get("/connectors").forEach(name -> {
            if (name.asText().startsWith(ReplayIds.PREFIX)) {
                replays.add(name.asText());
            }
        });
        return replays;
    }

    private static String log() {
        try {
            return new String(Files.readAllBytes(worker.logFile()), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, String> json() {
        return Map.of("Accept", "application/json");
    }

    /** One request with the operator's credentials and exactly {@code headers} besides. */
    private static HttpResponse<String> send(String method, String path, String body, Map<String, String> headers) {
        Map<String, String> signedIn = new LinkedHashMap<>(headers);
        signedIn.put("Authorization", AUTH);
        return HttpRequests.send(worker.restUrl(), method, path, body, signedIn);
    }

    private static Socket connect() throws IOException {
        URI url = URI.create(worker.restUrl());
        Socket socket = new Socket(url.getHost(), url.getPort());
        socket.setSoTimeout((int) Duration.ofSeconds(30).toMillis());
        return socket;
    }

    private static String head(String method, String path, String bodyHeader) {
        URI url = URI.create(worker.restUrl());
        return method + " " + path + " HTTP/1.1\r\nHost: " + url.getHost() + ":" + url.getPort() + "\r\n"
                + "Authorization: " + AUTH + "\r\nContent-Type: application/json\r\nAccept: application/json\r\n"
                + bodyHeader + "\r\n\r\n";
    }

    /**
     * The status line of one request sent with {@code host} as its Host header (which Java's HTTP client does not
     * let a caller set), the operator's credentials and {@code headers}.
     */
    private static String statusUnder(String host, String method, String path, Map<String, String> headers,
                                      String body) {
        StringBuilder request = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: " + host
                + "\r\nAuthorization: " + AUTH + "\r\nAccept: application/json\r\nConnection: close\r\n");
        headers.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        if (body != null) {
            request.append("Content-Type: application/json\r\nContent-Length: ").append(bytes.length)
                    .append("\r\n");
        }
        request.append("\r\n");
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();
            return statusLine(socket);
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path + " under " + host + " failed", e);
        }
    }

    /** The status line of the answer on {@code socket}; fails when none comes within the socket's 30 s. */
    private static String statusLine(Socket socket) throws IOException {
        try {
            String line = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII)).readLine();
            assertThat(line).as("an answer before the connection closed").isNotNull();
            return line;
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer within 30 s: the worker waits for the body", e);
        }
    }

    private static JsonNode body(HttpResponse<String> answer) {
        try {
            return JSON.readTree(answer.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + answer.body(), e);
        }
    }

    private static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
