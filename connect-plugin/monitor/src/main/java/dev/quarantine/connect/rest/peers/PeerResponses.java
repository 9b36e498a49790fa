package dev.quarantine.connect.rest.peers;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The bytes of the peer listener's HTTP/1.1 answers. Every answer says which peer protocol this worker speaks
 * ({@link PeerAuth#PROTOCOL_HEADER}), so a worker of another plugin version can say why it cannot use it.
 */
final class PeerResponses {

    private static final Map<Integer, String> REASONS = Map.ofEntries(Map.entry(200, "OK"),
            Map.entry(400, "Bad Request"), Map.entry(401, "Unauthorized"), Map.entry(403, "Forbidden"),
            Map.entry(404, "Not Found"), Map.entry(408, "Request Timeout"), Map.entry(413, "Content Too Large"),
            Map.entry(421, "Misdirected Request"), Map.entry(431, "Request Header Fields Too Large"),
            Map.entry(500, "Internal Server Error"), Map.entry(501, "Not Implemented"),
            Map.entry(503, "Service Unavailable"), Map.entry(505, "HTTP Version Not Supported"));
    private static final int OVERLOAD_RETRY_AFTER_SECONDS = 1;
    private static final byte[] OVERLOAD = render(new PeerServer.Answer(503, null, OVERLOAD_RETRY_AFTER_SECONDS,
            new byte[0]), true);

    private PeerResponses() {
    }

    /** An unsigned answer without body (not found, not ready, failed). */
    static PeerServer.Answer plain(int status) {
        return new PeerServer.Answer(status, null, status == 503 ? OVERLOAD_RETRY_AFTER_SECONDS : null, new byte[0]);
    }

    /** 503 with Retry-After, closing: too many connections or requests. */
    static byte[] overload() {
        return OVERLOAD.clone();
    }

    /** A request the listener refuses before any endpoint sees it (malformed, too large, too slow), closing. */
    static byte[] refusal(int status) {
        return render(plain(status), true);
    }

    static byte[] render(PeerServer.Answer answer, boolean close) {
        StringBuilder head = new StringBuilder("HTTP/1.1 ").append(answer.status()).append(' ')
                .append(REASONS.getOrDefault(answer.status(), "Status")).append("\r\n");
        if (answer.body().length > 0) {
            head.append("Content-Type: ").append(answer.status() == 200 ? "application/octet-stream"
                    : "application/json").append("\r\n");
        }
        head.append("Content-Length: ").append(answer.body().length).append("\r\n");
        head.append(PeerAuth.PROTOCOL_HEADER).append(": ").append(PeerSigningInput.PROTOCOL).append("\r\n");
        if (answer.signature() != null) {
            head.append(PeerAuth.SIGNATURE_HEADER).append(": ").append(answer.signature()).append("\r\n");
        }
        if (answer.retryAfterSeconds() != null) {
            head.append("Retry-After: ").append(answer.retryAfterSeconds()).append("\r\n");
        }
        if (close) {
            head.append("Connection: close\r\n");
        }
        head.append("\r\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(answer.body());
        return out.toByteArray();
    }
}
