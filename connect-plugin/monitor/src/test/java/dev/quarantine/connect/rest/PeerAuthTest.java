package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.Test;

class PeerAuthTest {

    private static final String SECRET = "a-secret-of-some-length";
    private static final String PATH = Peers.PARTIALS_FULL_PATH;
    private static final String SELF = "10.0.0.7:8083";
    private static final Map<String, String> PARAMS = Map.of("partitions", "0,2", "records", "0");
    private static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");

    private static PeerAuth auth(String secret, Instant now) {
        return new PeerAuth(Optional.ofNullable(secret).map(Password::new), Clock.fixed(now, ZoneOffset.UTC));
    }

    @Test
    void acceptsARequestSignedWithTheSameSecretForThisAddress() {
        PeerAuth.Proof proof = auth(SECRET, NOW).signRequest(SELF, PATH, PARAMS);

        auth(SECRET, NOW.plusSeconds(5)).verifyRequest(SELF, PATH, PARAMS, String.valueOf(proof.timeMs()),
                proof.signature());

        assertThat(proof.timeMs()).isEqualTo(NOW.toEpochMilli());
    }

    @Test
    void refusesARequestSignedWithAnotherSecret() {
        PeerAuth.Proof proof = auth("another-secret-of-length", NOW).signRequest(SELF, PATH, PARAMS);

        assertUnauthorized(() -> auth(SECRET, NOW).verifyRequest(SELF, PATH, PARAMS, String.valueOf(proof.timeMs()),
                proof.signature()));
    }

    @Test
    void refusesARequestSignedForAnotherAddressSoAForgedPeerCannotReplayWhatItReceived() {
        PeerAuth.Proof proof = auth(SECRET, NOW).signRequest("127.0.0.1:6666", PATH, PARAMS);

        assertUnauthorized(() -> auth(SECRET, NOW).verifyRequest(SELF, PATH, PARAMS, String.valueOf(proof.timeMs()),
                proof.signature()));
    }

    @Test
    void refusesARequestWhoseParametersChanged() {
        PeerAuth.Proof proof = auth(SECRET, NOW).signRequest(SELF, PATH, PARAMS);

        assertUnauthorized(() -> auth(SECRET, NOW).verifyRequest(SELF, PATH, Map.of("partitions", "0,1,2",
                "records", "0"), String.valueOf(proof.timeMs()), proof.signature()));
    }

    @Test
    void refusesARequestOlderOrNewerThanTheReplayWindow() {
        PeerAuth.Proof proof = auth(SECRET, NOW).signRequest(SELF, PATH, PARAMS);
        String time = String.valueOf(proof.timeMs());

        assertUnauthorized(() -> auth(SECRET, NOW.plus(PeerAuth.MAX_AGE).plusSeconds(1)).verifyRequest(SELF, PATH,
                PARAMS, time, proof.signature()));
        assertUnauthorized(() -> auth(SECRET, NOW.minus(PeerAuth.MAX_AGE).minusSeconds(1)).verifyRequest(SELF, PATH,
                PARAMS, time, proof.signature()));
    }

    @Test
    void refusesARequestWithoutProofOrWithAMalformedTime() {
        assertUnauthorized(() -> auth(SECRET, NOW).verifyRequest(SELF, PATH, PARAMS, null, null));
        assertUnauthorized(() -> auth(SECRET, NOW).verifyRequest(SELF, PATH, PARAMS, "soon", "c2ln"));
    }

    @Test
    void aWorkerWithoutSecretAnswersNoPeerAtAll() {
        PeerAuth.Proof proof = auth(SECRET, NOW).signRequest(SELF, PATH, PARAMS);

        assertThatThrownBy(() -> auth(null, NOW).verifyRequest(SELF, PATH, PARAMS, String.valueOf(proof.timeMs()),
                proof.signature())).isInstanceOfSatisfying(MonitorException.class,
                e -> assertThat(e.status()).isEqualTo(403));
        assertThat(auth(null, NOW).enabled()).isFalse();
    }

    @Test
    void anAnswerIsTrustedOnlyWithTheSecretForThatRequestStatusAndBody() {
        PeerAuth auth = auth(SECRET, NOW);
        byte[] body = "figures".getBytes(StandardCharsets.UTF_8);
        String signature = auth.signAnswer("request-signature", 200, body);

        assertThat(auth.verifiesAnswer("request-signature", 200, body, signature)).isTrue();
        assertThat(auth.verifiesAnswer("another-request", 200, body, signature)).isFalse();
        assertThat(auth.verifiesAnswer("request-signature", 503, body, signature)).isFalse();
        assertThat(auth.verifiesAnswer("request-signature", 200, "forged".getBytes(StandardCharsets.UTF_8),
                signature)).isFalse();
        assertThat(auth.verifiesAnswer("request-signature", 200, body, null)).isFalse();
        assertThat(auth("another-secret-of-length", NOW).verifiesAnswer("request-signature", 200, body, signature))
                .isFalse();
    }

    private static void assertUnauthorized(Runnable verify) {
        assertThatThrownBy(verify::run).isInstanceOfSatisfying(MonitorException.class, e -> {
            assertThat(e.status()).isEqualTo(401);
            assertThat(e.publicMessage()).doesNotContain(SELF);
        });
    }
}
