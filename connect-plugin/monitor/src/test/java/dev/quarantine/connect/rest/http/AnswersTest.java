package dev.quarantine.connect.rest.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.Test;

import jakarta.ws.rs.core.Response;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.peers.PeerAuth;
import dev.quarantine.connect.rest.peers.PeerServer;

class AnswersTest {

    private static final PeerAuth AUTH = new PeerAuth(Optional.of(new Password("answers-test-secret-01")),
            Clock.systemUTC());

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

    @Test
    void aPeersAnswerIsSignedForItsRequestButAFailedProofIsNot() {
        Answers answers = answers(Map.of());
        PeerServer.Answer share = answers.peer(() -> { }, "request-signature", () -> new byte[] {1, 2});
        PeerServer.Answer refused = answers.peer(() -> {
            throw MonitorException.unauthorized("no signature");
        }, "request-signature", () -> new byte[] {1, 2});
        PeerServer.Answer notReady = answers.peer(() -> { }, "request-signature", () -> {
            throw MonitorException.retryable("rebalancing", null);
        });

        assertThat(AUTH.verifiesAnswer("request-signature", 200, new byte[] {1, 2}, share.signature())).isTrue();
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.signature()).isNull();
        assertThat(notReady.status()).isEqualTo(503);
        assertThat(notReady.retryAfterSeconds()).isEqualTo(2);
        assertThat(AUTH.verifiesAnswer("request-signature", 503, notReady.body(), notReady.signature())).isTrue();
    }

    @Test
    void tenThousandUnprovenPeerRequestsAreRefusedEachWithARequestIdButLoggedInAFewLines() {
        Answers answers = answers(Map.of());

        List<String> lines = logLinesOf(() -> answers.peerRefusal(MonitorException.unauthorized("a request for"
                + " this worker's share without a peer signature")));

        assertThat(lines).hasSizeBetween(1, 3);
        assertThat(lines.get(0)).contains("without a peer signature");
    }

    @Test
    void aCapturedPeerRequestSentAgainTenThousandTimesIsRefusedEachTimeButLoggedInAFewLines() {
        Answers answers = answers(Map.of());

        List<String> lines = logLinesOf(() -> answers.peer(() -> {
            throw MonitorException.unauthorized("a request whose nonce is used: a replay");
        }, "request-signature", () -> new byte[] {1}));

        assertThat(lines).as("refused by the handler's check (the listener's check passes a signed request)")
                .hasSizeBetween(1, 3);
        assertThat(lines.get(0)).contains("a replay");
    }

    /** The log lines "answered 401" of 10,000 refusals, each checked as unsigned with a request id. */
    private static List<String> logLinesOf(java.util.function.Supplier<PeerServer.Answer> refusal) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream err = System.err;
        PrintStream out = System.out;
        PrintStream capture = new PrintStream(log, true, StandardCharsets.UTF_8);
        System.setErr(capture); // the tests' slf4j-simple writes to System.err (or System.out) as it is now
        System.setOut(capture);
        try {
            for (int i = 0; i < 10_000; i++) {
                PeerServer.Answer answer = refusal.get();

                assertThat(answer.status()).isEqualTo(401);
                assertThat(answer.signature()).isNull();
                assertThat(new String(answer.body(), StandardCharsets.UTF_8)).contains("\"request_id\":\"");
            }
        } finally {
            System.setErr(err);
            System.setOut(out);
        }
        return log.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("answered 401")).toList();
    }

    private static Answers answers(Map<String, String> settings) {
        Map<String, Object> worker = new HashMap<>(settings);
        return new Answers(new MonitorConfig(worker), AUTH);
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
