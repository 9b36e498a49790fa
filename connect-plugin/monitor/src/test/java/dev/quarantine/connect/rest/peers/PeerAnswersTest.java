package dev.quarantine.connect.rest.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.http.MonitorException;

class PeerAnswersTest {

    private static final PeerAuth AUTH = new PeerAuth(Optional.of(new Password("answers-test-secret-01")),
            Clock.systemUTC());

    @Test
    void aPeersAnswerIsSignedForItsRequestButAFailedProofIsNot() {
        PeerAnswers answers = answers();
        PeerServer.Answer share = answers.share(() -> { }, "request-signature", () -> new byte[] {1, 2});
        PeerServer.Answer refused = answers.share(() -> {
            throw MonitorException.unauthorized("no signature");
        }, "request-signature", () -> new byte[] {1, 2});
        PeerServer.Answer notReady = answers.share(() -> { }, "request-signature", () -> {
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
        PeerAnswers answers = answers();

        List<String> lines = logLinesOf(() -> answers.refusal(MonitorException.unauthorized("a request for"
                + " this worker's share without a peer signature")));

        assertThat(lines).hasSizeBetween(1, 3);
        assertThat(lines.get(0)).contains("without a peer signature");
    }

    @Test
    void aCapturedPeerRequestSentAgainTenThousandTimesIsRefusedEachTimeButLoggedInAFewLines() {
        PeerAnswers answers = answers();

        List<String> lines = logLinesOf(() -> answers.share(() -> {
            throw MonitorException.unauthorized("a request whose nonce is used: a replay");
        }, "request-signature", () -> new byte[] {1}));

        assertThat(lines).as("refused by the handler's check (the listener's check passes a signed request)")
                .hasSizeBetween(1, 3);
        assertThat(lines.get(0)).contains("a replay");
    }

    /** The log lines "answered 401" of 10,000 refusals, each checked as unsigned with a request id. */
    private static List<String> logLinesOf(Supplier<PeerServer.Answer> refusal) {
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

    private static PeerAnswers answers() {
        return new PeerAnswers(new MonitorConfig(Map.of()), AUTH);
    }
}
