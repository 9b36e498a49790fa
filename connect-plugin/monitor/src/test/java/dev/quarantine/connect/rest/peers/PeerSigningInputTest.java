package dev.quarantine.connect.rest.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The signed encoding: no two different requests (or a request and an answer) give the same bytes. */
class PeerSigningInputTest {

    private static final byte[] NO_BODY = new byte[0];

    private static byte[] request(String method, String path, String query, String nonce, String sender,
                                  String target) {
        return PeerSigningInput.request(method, path, query, NO_BODY, 1000L, nonce, sender, target);
    }

    @Test
    void movingABoundaryBetweenFieldsChangesTheBytes() {
        byte[] base = request("GET", "/a", "b=1", "n", "s:1", "t:2");

        assertThat(request("GET", "/a", "b=1", "ns", ":1", "t:2")).isNotEqualTo(base);
        assertThat(request("GET", "/ab", "=1", "n", "s:1", "t:2")).isNotEqualTo(base);
        assertThat(request("GE", "T/a", "b=1", "n", "s:1", "t:2")).isNotEqualTo(base);
        assertThat(request("GET", "/a", "b=1\nn", "", "s:1", "t:2")).isNotEqualTo(base);
        assertThat(request("GET", "/a", "b=1", "n", "s:1", "t:2")).isEqualTo(base);
    }

    @Test
    void eachFieldIsItsLengthThenItsBytes() {
        ByteBuffer bytes = ByteBuffer.wrap(request("GET", "/p", "", "nonce", "s", "t"));

        assertThat(field(bytes)).isEqualTo("quarantine-peer-request");
        assertThat(field(bytes)).isEqualTo(PeerSigningInput.PROTOCOL);
        assertThat(field(bytes)).isEqualTo("GET");
        assertThat(field(bytes)).isEqualTo("/p");
        assertThat(field(bytes)).isEmpty();
        assertThat(bytes.getInt()).as("the body's SHA-256").isEqualTo(32);
        bytes.position(bytes.position() + 32);
        assertThat(field(bytes)).isEqualTo("1000");
        assertThat(field(bytes)).isEqualTo("nonce");
        assertThat(field(bytes)).isEqualTo("s");
        assertThat(field(bytes)).isEqualTo("t");
        assertThat(bytes.hasRemaining()).isFalse();
    }

    @Test
    void theBodyTimeAndAnswerFieldsAreSigned() {
        byte[] base = PeerSigningInput.request("GET", "/p", "", NO_BODY, 1000L, "n", "s", "t");

        assertThat(PeerSigningInput.request("GET", "/p", "", new byte[] {0}, 1000L, "n", "s", "t"))
                .isNotEqualTo(base);
        assertThat(PeerSigningInput.request("GET", "/p", "", NO_BODY, 1001L, "n", "s", "t")).isNotEqualTo(base);
        assertThat(PeerSigningInput.answer("n", 200, NO_BODY)).isNotEqualTo(PeerSigningInput.answer("n", 503,
                NO_BODY)).isNotEqualTo(PeerSigningInput.answer("m", 200, NO_BODY)).isNotEqualTo(base);
    }

    private static String field(ByteBuffer bytes) {
        byte[] field = new byte[bytes.getInt()];
        bytes.get(field);
        return new String(field, StandardCharsets.UTF_8);
    }
}
