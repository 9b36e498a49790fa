package dev.quarantine.connect.rest.peers;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The bytes a peer request or answer is signed over: a label, the protocol version, then every field as a 4-byte
 * big-endian length followed by its bytes (strings in UTF-8). Length prefixes make the encoding unambiguous: no
 * choice of values (a newline, an {@code =}, an empty field) can make two different requests sign the same bytes.
 *
 * <p>A request: method, path, raw query (exactly as sent), SHA-256 of the body, time (ms), nonce, sender (the asking
 * worker's {@code host:port}) and target (the {@code host:port} it was sent to). An answer: the request's nonce,
 * the status and the SHA-256 of the body.
 */
final class PeerSigningInput {

    /** The peer protocol these workers speak; a worker of another plugin version with another one is refused. */
    static final String PROTOCOL = "2";
    private static final String REQUEST_LABEL = "quarantine-peer-request";
    private static final String ANSWER_LABEL = "quarantine-peer-answer";

    private PeerSigningInput() {
    }

    /** What a request is signed over. */
    static byte[] request(String method, String path, String rawQuery, byte[] body, long timeMs, String nonce,
                          String sender, String target) {
        return fields(REQUEST_LABEL, PROTOCOL, method, path, rawQuery, sha256(body), String.valueOf(timeMs), nonce,
                sender, target);
    }

    /** What an answer to the request with {@code nonce} is signed over. */
    static byte[] answer(String nonce, int status, byte[] body) {
        return fields(ANSWER_LABEL, PROTOCOL, nonce, String.valueOf(status), sha256(body));
    }

    private static byte[] fields(Object... fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object field : fields) {
            byte[] bytes = field instanceof byte[] raw ? raw : String.valueOf(field).getBytes(StandardCharsets.UTF_8);
            out.write(bytes.length >>> 24);
            out.write(bytes.length >>> 16);
            out.write(bytes.length >>> 8);
            out.write(bytes.length);
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    static byte[] sha256(byte[] body) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(body);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
