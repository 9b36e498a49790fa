package dev.quarantine.connect.rest.peers;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The request line and headers of an HTTP/1.x request to the peer listener, parsed from the bytes received so far.
 * Strict and small, since only workers of this plugin send here: no folded headers, no transfer codings (a body has a
 * Content-Length), a bounded head and body; anything else is refused with its status and the connection closed.
 *
 * @param target    the request target as sent (path and raw query)
 * @param headers   header names in lower case; of a repeated header the last
 * @param keepAlive whether the connection may carry another request after the answer
 */
record PeerRequestHead(String method, String target, Map<String, String> headers, int contentLength,
                       boolean keepAlive) {

    /** What the bytes so far are: not a whole head yet, a head of {@code length} bytes, or a refusal. */
    record Parse(PeerRequestHead head, int length, int refusalStatus, String refusal) {
        static final Parse INCOMPLETE = new Parse(null, 0, 0, null);

        boolean complete() {
            return head != null;
        }

        boolean refused() {
            return refusal != null;
        }
    }

    static Parse parse(byte[] bytes, int length, int maxHeadBytes, int maxBodyBytes) {
        return parse(bytes, 0, length, maxHeadBytes, maxBodyBytes);
    }

    /**
     * As {@link #parse(byte[], int, int, int)}, looking for the end of the head only from {@code scannedTo} on: the
     * length of the bytes an earlier call found incomplete, so a head arriving a byte at a time is scanned once, not
     * once per byte.
     */
    static Parse parse(byte[] bytes, int scannedTo, int length, int maxHeadBytes, int maxBodyBytes) {
        int end = endOfHead(bytes, scannedTo, length);
        if (end < 0) {
            return length >= maxHeadBytes ? refuse(431, "request head over " + maxHeadBytes + " bytes")
                    : Parse.INCOMPLETE;
        }
        if (end > maxHeadBytes) {
            return refuse(431, "request head over " + maxHeadBytes + " bytes");
        }
        String[] lines = new String(bytes, 0, end - 4, StandardCharsets.ISO_8859_1).split("\r\n", -1);
        String[] requestLine = lines[0].split(" ", -1);
        if (requestLine.length != 3 || requestLine[0].isEmpty() || !requestLine[1].startsWith("/")) {
            return refuse(400, "malformed request line");
        }
        if (!requestLine[2].equals("HTTP/1.1") && !requestLine[2].equals("HTTP/1.0")) {
            return refuse(505, "HTTP version not supported");
        }
        Map<String, String> headers = new HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0 || lines[i].charAt(0) == ' ' || lines[i].charAt(0) == '\t'
                    || lines[i].substring(0, colon).contains(" ")) {
                return refuse(400, "malformed header line");
            }
            headers.put(lines[i].substring(0, colon).toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        return head(requestLine, headers, end, maxBodyBytes);
    }

    private static Parse head(String[] requestLine, Map<String, String> headers, int end, int maxBodyBytes) {
        if (headers.containsKey("transfer-encoding")) {
            return refuse(501, "transfer codings are not supported (send a Content-Length)");
        }
        int contentLength = 0;
        String declared = headers.get("content-length");
        if (declared != null) {
            if (!declared.matches("\\d{1,10}")) {
                return refuse(400, "malformed Content-Length");
            }
            long value = Long.parseLong(declared);
            if (value > maxBodyBytes) {
                return refuse(413, "request body over " + maxBodyBytes + " bytes");
            }
            contentLength = (int) value;
        }
        String connection = headers.getOrDefault("connection", "").toLowerCase(Locale.ROOT);
        boolean keepAlive = requestLine[2].equals("HTTP/1.1") && !connection.contains("close");
        return new Parse(new PeerRequestHead(requestLine[0], requestLine[1], headers, contentLength, keepAlive), end,
                0, null);
    }

    /** The path of the target, without its query. */
    String path() {
        int query = target.indexOf('?');
        return query < 0 ? target : target.substring(0, query);
    }

    /** The raw query of the target, "" when none. */
    String rawQuery() {
        int query = target.indexOf('?');
        return query < 0 ? "" : target.substring(query + 1);
    }

    private static Parse refuse(int status, String reason) {
        return new Parse(null, 0, status, reason);
    }

    /** The index just past the blank line ending the head, or -1; ends before {@code scannedTo} are not looked for. */
    static int endOfHead(byte[] bytes, int scannedTo, int length) {
        for (int i = Math.max(3, scannedTo); i < length; i++) {
            if (bytes[i] == '\n' && bytes[i - 1] == '\r' && bytes[i - 2] == '\n' && bytes[i - 3] == '\r') {
                return i + 1;
            }
        }
        return -1;
    }
}
