package dev.quarantine.connect.rest.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.Test;

import dev.quarantine.sandbox.MovableClock;

class PeerAuthTest {

    private static final String SECRET = "a-secret-of-some-length-0123456789abcdef";
    private static final String OTHER_SECRET = "another-secret-of-length-0123456789abcdef";
    private static final String PATH = Peers.PARTIALS_FULL_PATH;
    private static final String SELF = "10.0.0.7:8083";
    private static final String SENDER = "10.0.0.8:8083";
    private static final String QUERY = "partitions=0%2C2&records=0";
    private static final byte[] NO_BODY = new byte[0];
    private static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");

    private static PeerAuth auth(String secret, Instant now) {
        return new PeerAuth(Optional.ofNullable(secret).map(Password::new), Clock.fixed(now, ZoneOffset.UTC));
    }

    private static PeerAuth.Proof sign(String secret, String target) {
        return auth(secret, NOW).signRequest(SENDER, target, "GET", PATH, QUERY, NO_BODY);
    }

    /** The headers as the listener hands them over: names in lower case. */
    private static Map<String, String> received(PeerAuth.Proof proof) {
        Map<String, String> headers = new HashMap<>();
        proof.headers().forEach((name, value) -> headers.put(name.toLowerCase(Locale.ROOT), value));
        return headers;
    }

    private static Optional<PeerAuth.Refusal> verify(PeerAuth auth, Map<String, String> headers) {
        return auth.verifyRequest(SELF, "GET", PATH, QUERY, NO_BODY, headers);
    }

    @Test
    void acceptsARequestSignedWithTheSameSecretForThisAddress() {
        MovableClock clock = new MovableClock(NOW);
        PeerAuth verifier = new PeerAuth(Optional.of(new Password(SECRET)), clock);
        PeerAuth.Proof proof = sign(SECRET, SELF);
        clock.advance(Duration.ofMillis(5_000));

        assertThat(verify(verifier, received(proof))).isEmpty();
        assertThat(proof.timeMs()).isEqualTo(NOW.toEpochMilli());
        assertThat(proof.headers()).containsEntry(PeerAuth.PROTOCOL_HEADER, PeerSigningInput.PROTOCOL)
                .containsEntry(PeerAuth.SENDER_HEADER, SENDER);
    }

    @Test
    void theListenersCheckRefusesAnUnprovenRequestAndLeavesAProvenOnesNonceForTheHandler() {
        PeerAuth auth = auth(SECRET, NOW);
        Map<String, String> headers = received(sign(SECRET, SELF));

        assertNotProven(auth.checkRequest(SELF, "GET", PATH, QUERY, NO_BODY, Map.of()));
        assertNotProven(auth.checkRequest(SELF, "GET", PATH, QUERY, NO_BODY, received(sign(OTHER_SECRET, SELF))));
        assertThat(auth.checkRequest(SELF, "GET", PATH, QUERY, NO_BODY, headers)).isEmpty();
        assertThat(auth.checkRequest(SELF, "GET", PATH, QUERY, NO_BODY, headers)).as("checked twice").isEmpty();
        assertThat(verify(auth, headers)).as("then accepted once").isEmpty();
        assertNotProven(verify(auth, headers));
    }

    @Test
    void refusesARequestSignedWithAnotherSecret() {
        assertNotProven(verify(auth(SECRET, NOW), received(sign(OTHER_SECRET, SELF))));
    }

    @Test
    void refusesARequestSignedForAnotherAddressSoAForgedPeerCannotUseWhatItReceived() {
        assertNotProven(verify(auth(SECRET, NOW), received(sign(SECRET, "127.0.0.1:6666"))));
    }

    @Test
    void refusesARequestOfWhichAnySignedPartChanged() {
        Map<String, String> headers = received(sign(SECRET, SELF));
        PeerAuth auth = auth(SECRET, NOW);

        assertNotProven(auth.verifyRequest(SELF, "POST", PATH, QUERY, NO_BODY, headers));
        assertNotProven(auth.verifyRequest(SELF, "GET", PATH + "x", QUERY, NO_BODY, headers));
        assertNotProven(auth.verifyRequest(SELF, "GET", PATH, "partitions=0%2C1%2C2&records=0", NO_BODY, headers));
        assertNotProven(auth.verifyRequest(SELF, "GET", PATH, QUERY, new byte[] {1}, headers));
        assertNotProven(verify(auth, with(headers, PeerAuth.SENDER_HEADER, "10.0.0.9:8083")));
        assertNotProven(verify(auth, with(headers, PeerAuth.NONCE_HEADER, "AAAAAAAAAAAAAAAAAAAAAA")));
        assertNotProven(verify(auth, with(headers, PeerAuth.TIME_HEADER, String.valueOf(NOW.toEpochMilli() + 1))));
        assertThat(verify(auth, headers)).as("the request as signed, after all those").isEmpty();
    }

    @Test
    void refusesACapturedRequestSentAgainWithinTheWindow() {
        PeerAuth auth = auth(SECRET, NOW);
        Map<String, String> captured = received(sign(SECRET, SELF));

        assertThat(verify(auth, captured)).isEmpty();
        assertNotProven(verify(auth, captured));
        assertThat(verify(auth, received(sign(SECRET, SELF)))).as("a fresh request, another nonce").isEmpty();
    }

    @Test
    void refusesARequestSignedBeforeThisWorkerStartedToAnswerSoACaptureFromBeforeARestartIsNotAnsweredTwice() {
        Map<String, String> capturedBeforeTheRestart = received(sign(SECRET, SELF));
        PeerAuth restarted = auth(SECRET, NOW.plusMillis(1));

        Optional<PeerAuth.Refusal> refusal = verify(restarted, capturedBeforeTheRestart);

        assertNotProven(refusal);
        assertThat(refusal.get().message()).contains("before this worker's peer listener started");
        assertThat(verify(auth(SECRET, NOW), received(sign(SECRET, SELF)))).as("signed the very millisecond it started")
                .isEmpty();
    }

    @Test
    void refusesARequestOlderOrNewerThanTheWindow() {
        Map<String, String> headers = received(sign(SECRET, SELF));

        assertNotProven(verify(auth(SECRET, NOW.plus(PeerAuth.MAX_AGE).plusSeconds(1)), headers));
        assertNotProven(verify(auth(SECRET, NOW.minus(PeerAuth.MAX_AGE).minusSeconds(1)), headers));
    }

    @Test
    void refusesARequestWithMissingOrMalformedProof() {
        Map<String, String> headers = received(sign(SECRET, SELF));
        PeerAuth auth = auth(SECRET, NOW);

        for (String header : new String[] {PeerAuth.TIME_HEADER, PeerAuth.NONCE_HEADER, PeerAuth.SENDER_HEADER,
                PeerAuth.SIGNATURE_HEADER}) {
            assertNotProven(verify(auth, with(headers, header, null)));
        }
        assertNotProven(verify(auth, Map.of()));
        assertNotProven(verify(auth, with(headers, PeerAuth.TIME_HEADER, "soon")));
        assertNotProven(verify(auth, with(headers, PeerAuth.NONCE_HEADER, "short")));
        assertNotProven(verify(auth, with(headers, PeerAuth.SIGNATURE_HEADER, "not base64 !")));
        assertNotProven(verify(auth, with(headers, PeerAuth.SIGNATURE_HEADER, "c2ln")));
    }

    @Test
    void refusesARequestOfAnotherPeerProtocolAsAnotherPluginVersion() {
        Map<String, String> headers = received(sign(SECRET, SELF));

        for (String protocol : new String[] {null, "1", "3", "junk\r\n"}) {
            Optional<PeerAuth.Refusal> refusal = verify(auth(SECRET, NOW), with(headers, PeerAuth.PROTOCOL_HEADER,
                    protocol));
            assertThat(refusal).as("protocol " + protocol).hasValueSatisfying(r -> {
                assertThat(r.reason()).isEqualTo(PeerAuth.Reason.OTHER_PROTOCOL);
                assertThat(r.toException().status()).isEqualTo(400);
                assertThat(r.message()).contains("different versions of the plugin").doesNotContain("junk");
            });
        }
    }

    @Test
    void aWorkerWithoutSecretAnswersNoPeerAtAll() {
        Optional<PeerAuth.Refusal> refusal = verify(auth(null, NOW), received(sign(SECRET, SELF)));

        assertThat(refusal).hasValueSatisfying(r -> assertThat(r.toException().status()).isEqualTo(403));
        assertThat(auth(null, NOW).enabled()).isFalse();
    }

    @Test
    void anAnswerIsTrustedOnlyWithTheSecretForThatRequestsNonceStatusAndBody() {
        PeerAuth auth = auth(SECRET, NOW);
        byte[] body = "figures".getBytes(StandardCharsets.UTF_8);
        String signature = auth.signAnswer("request-nonce-0123", 200, body);

        assertThat(auth.verifiesAnswer("request-nonce-0123", 200, body, signature)).isTrue();
        assertThat(auth.verifiesAnswer("another-nonce-0123", 200, body, signature)).isFalse();
        assertThat(auth.verifiesAnswer("request-nonce-0123", 503, body, signature)).isFalse();
        assertThat(auth.verifiesAnswer("request-nonce-0123", 200, "forged".getBytes(StandardCharsets.UTF_8),
                signature)).isFalse();
        assertThat(auth.verifiesAnswer("request-nonce-0123", 200, body, null)).isFalse();
        assertThat(auth(OTHER_SECRET, NOW).verifiesAnswer("request-nonce-0123", 200, body, signature)).isFalse();
    }

    @Test
    void requestAndAnswerKeysDifferSoARequestsSignatureNeverPassesAsAnAnswer() {
        PeerAuth auth = auth(SECRET, NOW);
        PeerAuth.Proof proof = sign(SECRET, SELF);
        String asAnswer = auth.signAnswer(proof.nonce(), 200, NO_BODY);

        assertThat(asAnswer).isNotEqualTo(proof.signature());
        assertThat(auth.verifiesAnswer(proof.nonce(), 200, NO_BODY, proof.signature())).isFalse();
    }

    private static Map<String, String> with(Map<String, String> headers, String name, String value) {
        Map<String, String> changed = new HashMap<>(headers);
        if (value == null) {
            changed.remove(name.toLowerCase(Locale.ROOT));
        } else {
            changed.put(name.toLowerCase(Locale.ROOT), value);
        }
        return changed;
    }

    private static void assertNotProven(Optional<PeerAuth.Refusal> refusal) {
        Consumer<PeerAuth.Refusal> notProven = r -> {
            assertThat(r.reason()).isEqualTo(PeerAuth.Reason.NOT_PROVEN);
            assertThat(r.toException().status()).isEqualTo(401);
            assertThat(r.message()).doesNotContain(SELF, SECRET);
        };
        assertThat(refusal).hasValueSatisfying(notProven);
    }
}
