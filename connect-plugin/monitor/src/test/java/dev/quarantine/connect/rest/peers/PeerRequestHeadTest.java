package dev.quarantine.connect.rest.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** What the peer listener makes of the bytes received so far, row by row. */
class PeerRequestHeadTest {

    private static final int MAX_HEAD = 256;
    private static final int MAX_BODY = 100;

    private static PeerRequestHead.Parse parse(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        return PeerRequestHead.parse(bytes, bytes.length, MAX_HEAD, MAX_BODY);
    }

    @Test
    void aWholeHeadGivesMethodTargetHeadersAndItsLength() {
        String head = "GET /dead-letters/~partials?partitions=0 HTTP/1.1\r\nHost: x\r\n"
                + "X-Quarantine-Peer-Nonce: n\r\n\r\n";
        PeerRequestHead.Parse parse = parse(head + "next");

        assertThat(parse.complete()).isTrue();
        assertThat(parse.length()).isEqualTo(head.length());
        assertThat(parse.head().method()).isEqualTo("GET");
        assertThat(parse.head().path()).isEqualTo("/dead-letters/~partials");
        assertThat(parse.head().rawQuery()).isEqualTo("partitions=0");
        assertThat(parse.head().headers()).containsEntry("x-quarantine-peer-nonce", "n").containsEntry("host", "x");
        assertThat(parse.head().contentLength()).isZero();
        assertThat(parse.head().keepAlive()).isTrue();
    }

    @Test
    void partialHeadsNeedMore() {
        assertThat(parse("")).isEqualTo(PeerRequestHead.Parse.INCOMPLETE);
        assertThat(parse("G")).isEqualTo(PeerRequestHead.Parse.INCOMPLETE);
        assertThat(parse("GET / HTTP/1.1\r\nHost: x\r\n")).isEqualTo(PeerRequestHead.Parse.INCOMPLETE);
        assertThat(parse("GET / HTTP/1.1\r\n\r")).isEqualTo(PeerRequestHead.Parse.INCOMPLETE);
    }

    @Test
    void refusesWithTheStatusThatSaysWhy() {
        assertRefused("x".repeat(MAX_HEAD), 431);
        assertRefused("GET / HTTP/1.1\r\nA: " + "x".repeat(MAX_HEAD) + "\r\n\r\n", 431);
        assertRefused("GET /\r\n\r\n", 400);
        assertRefused("GET  / HTTP/1.1\r\n\r\n", 400);
        assertRefused("GET x HTTP/1.1\r\n\r\n", 400);
        assertRefused("GET / HTTP/2.0\r\n\r\n", 505);
        assertRefused("GET / HTTP/1.1\r\nNo colon\r\n\r\n", 400);
        assertRefused("GET / HTTP/1.1\r\nA: 1\r\n folded\r\n\r\n", 400);
        assertRefused("GET / HTTP/1.1\r\nBad name: 1\r\n\r\n", 400);
        assertRefused("GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 501);
        assertRefused("GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400);
        assertRefused("GET / HTTP/1.1\r\nContent-Length: 1e3\r\n\r\n", 400);
        assertRefused("GET / HTTP/1.1\r\nContent-Length: " + (MAX_BODY + 1) + "\r\n\r\n", 413);
        assertRefused("GET / HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n", 400);
    }

    @Test
    void keepsTheConnectionOnlyForHttp11WithoutConnectionClose() {
        assertThat(parse("GET / HTTP/1.0\r\n\r\n").head().keepAlive()).isFalse();
        assertThat(parse("GET / HTTP/1.1\r\nConnection: close\r\n\r\n").head().keepAlive()).isFalse();
        assertThat(parse("GET / HTTP/1.1\r\nConnection: Upgrade, HTTP2-Settings\r\n\r\n").head().keepAlive())
                .isTrue();
    }

    @Test
    void aBodyWithinTheLimitIsDeclaredByContentLength() {
        assertThat(parse("POST / HTTP/1.1\r\nContent-Length: " + MAX_BODY + "\r\n\r\n").head().contentLength())
                .isEqualTo(MAX_BODY);
    }

    private static void assertRefused(String text, int status) {
        PeerRequestHead.Parse parse = parse(text);
        assertThat(parse.refused()).as(text).isTrue();
        assertThat(parse.refusalStatus()).as(text).isEqualTo(status);
    }

    @Test
    void aHeadArrivingAByteAtATimeIsLookedThroughOnceResumingWhereTheLastLookStopped() {
        byte[] bytes = ("GET / HTTP/1.1\r\nA: b\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        int scannedTo = 0;
        PeerRequestHead.Parse parse = PeerRequestHead.Parse.INCOMPLETE;
        for (int length = 1; length <= bytes.length && !parse.complete(); length++) {
            parse = PeerRequestHead.parse(bytes, scannedTo, length, MAX_HEAD, MAX_BODY);
            scannedTo = length;
        }

        assertThat(parse.complete()).isTrue();
        assertThat(parse.length()).isEqualTo(bytes.length);
        assertThat(PeerRequestHead.endOfHead(bytes, bytes.length, bytes.length))
                .as("an end before where the scan resumes is not looked for again").isEqualTo(-1);
        assertThat(PeerRequestHead.endOfHead(bytes, bytes.length - 1, bytes.length)).isEqualTo(bytes.length);
    }
}
