package dev.quarantine.connect.rest.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import jakarta.ws.rs.core.Response;
import dev.quarantine.connect.rest.MonitorConfig;

class AnswersTest {

    @Test
    void anErrorCarriesAShortMessageAndARequestIdButNoDetails() {
        Response answer = answers(Map.of()).json(() -> {
            throw MonitorException.retryable("worker http://10.1.2.3:8083 did not answer (ConnectException: refused)",
                    new IllegalStateException("internal detail"));
        });
        String body = body(answer);

        assertThat(answer.getStatus()).isEqualTo(503);
        assertThat(answer.getHeaderString("Retry-After")).isEqualTo("2");
        assertThat(body).contains("\"request_id\":\"", "\"category\":\"RETRYABLE\"")
                .doesNotContain("10.1.2.3", "ConnectException", "internal detail");
    }

    @Test
    void anUnexpectedErrorIsA500WithoutTheExceptionsMessage() {
        Response answer = answers(Map.of()).json(() -> {
            throw new IllegalArgumentException("secret-bearing message");
        });

        assertThat(answer.getStatus()).isEqualTo(500);
        assertThat(body(answer)).doesNotContain("secret-bearing", "IllegalArgumentException");
    }

    @Test
    void aRequestBeyondTheConcurrencyLimitGetsA503() throws Exception {
        Answers answers = answers(Map.of(MonitorConfig.MAX_CONCURRENT_REQUESTS_CONFIG, "1",
                MonitorConfig.QUERY_RETRY_MS_CONFIG, "100"));
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Response> first = CompletableFuture.supplyAsync(() -> answers.json(() -> {
            inside.countDown();
            await(release);
            return Map.of("ok", true);
        }));
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

        Response second = answers.json(() -> Map.of("ok", true));
        release.countDown();

        assertThat(second.getStatus()).isEqualTo(503);
        assertThat(first.get(10, TimeUnit.SECONDS).getStatus()).isEqualTo(200);
        assertThat(answers.json(() -> Map.of("ok", true)).getStatus()).isEqualTo(200);
    }

    private static Answers answers(Map<String, String> settings) {
        Map<String, Object> worker = new HashMap<>(settings);
        return new Answers(new MonitorConfig(worker));
    }

    private static String body(Response answer) {
        Object entity = answer.getEntity();
        return entity instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(entity);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
