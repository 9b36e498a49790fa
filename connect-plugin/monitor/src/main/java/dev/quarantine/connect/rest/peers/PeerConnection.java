package dev.quarantine.connect.rest.peers;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One connection to the peer listener, owned by the listener's selector thread: the bytes of the request being read,
 * its phase and the deadline of that phase ({@link PeerLimits}), and the answer being written. Reading never blocks:
 * whatever arrived is parsed, and a connection that does not complete its phase in time is closed by the listener.
 */
final class PeerConnection {

    /** What the bytes received so far amount to. */
    enum Progress { NEED_MORE, REQUEST, REFUSED, CLOSED }

    final SocketChannel channel;
    final SelectionKey key;
    /** The peer's address, for the cap per address. */
    final InetAddress remote;
    private final PeerLimits limits;
    private final byte[] head = new byte[PeerLimits.MAX_HEAD_BYTES];
    private int headLength;
    /** How much of {@link #head} was looked through for the end of the head already. */
    private int scannedTo;
    private PeerRequestHead request;
    private byte[] body;
    private int bodyRead;
    private int refusalStatus;
    private PeerLimits.Phase phase = PeerLimits.Phase.IDLE;
    private long deadlineMs;
    private ByteBuffer out;
    private boolean closeAfterWrite;

    PeerConnection(SocketChannel channel, SelectionKey key, InetAddress remote, PeerLimits limits, long nowMs) {
        this.channel = channel;
        this.key = key;
        this.remote = remote;
        this.limits = limits;
        enter(PeerLimits.Phase.HEAD, nowMs); // a new connection has the head's deadline, from now

    }

    PeerLimits.Phase phase() {
        return phase;
    }

    boolean expired(long nowMs) {
        return nowMs > deadlineMs;
    }

    /** Reads what the peer sent, and says whether a whole request is here. */
    Progress read(long nowMs) throws IOException {
        ByteBuffer into = phase == PeerLimits.Phase.BODY ? ByteBuffer.wrap(body, bodyRead, body.length - bodyRead)
                : ByteBuffer.wrap(head, headLength, head.length - headLength);
        int n = channel.read(into);
        if (n < 0) {
            return Progress.CLOSED;
        }
        if (phase == PeerLimits.Phase.BODY) {
            bodyRead += n;
        } else {
            headLength += n;
        }
        return advance(nowMs);
    }

    /** Parses what is buffered: a request (head and body), more needed, or a refusal ({@link #refusalStatus()}). */
    Progress advance(long nowMs) {
        if (phase == PeerLimits.Phase.IDLE && headLength > 0) {
            enter(PeerLimits.Phase.HEAD, nowMs);
        }
        if (phase == PeerLimits.Phase.HEAD) {
            PeerRequestHead.Parse parse = PeerRequestHead.parse(head, scannedTo, headLength, head.length,
                    PeerLimits.MAX_BODY_BYTES);
            scannedTo = headLength;
            if (parse.refused()) {
                refusalStatus = parse.refusalStatus();
                return Progress.REFUSED;
            }
            if (!parse.complete()) {
                return Progress.NEED_MORE;
            }
            request = parse.head();
            body = new byte[request.contentLength()];
            bodyRead = Math.min(body.length, headLength - parse.length());
            System.arraycopy(head, parse.length(), body, 0, bodyRead);
            consume(parse.length() + bodyRead);
            enter(PeerLimits.Phase.BODY, nowMs);
        }
        if (phase == PeerLimits.Phase.BODY && bodyRead == body.length) {
            enter(PeerLimits.Phase.HANDLING, nowMs);
            return Progress.REQUEST;
        }
        return Progress.NEED_MORE;
    }

    int refusalStatus() {
        return refusalStatus;
    }

    PeerServer.Request request() {
        return new PeerServer.Request(request.method(), request.path(), request.rawQuery(), request.headers(), body);
    }

    /** Whether the connection may carry another request after this one's answer. */
    boolean keepAlive() {
        return request != null && request.keepAlive();
    }

    /** Starts writing {@code answer}; true when it is all written already. */
    boolean startWrite(byte[] answer, boolean close, long nowMs) throws IOException {
        out = ByteBuffer.wrap(answer);
        closeAfterWrite = close;
        enter(PeerLimits.Phase.WRITING, nowMs);
        return write();
    }

    /** Writes more of the answer; true when it is all written. */
    boolean write() throws IOException {
        channel.write(out);
        return !out.hasRemaining();
    }

    boolean closeAfterWrite() {
        return closeAfterWrite;
    }

    /** After an answer on a kept-alive connection: waits for the next request (some of it may be buffered). */
    void awaitNext(long nowMs) {
        request = null;
        body = null;
        bodyRead = 0;
        out = null;
        enter(PeerLimits.Phase.IDLE, nowMs);
    }

    private void consume(int bytes) {
        System.arraycopy(head, bytes, head, 0, headLength - bytes);
        headLength -= bytes;
        scannedTo = 0; // what is left is the start of the next request, not looked through yet
    }

    private void enter(PeerLimits.Phase next, long nowMs) {
        phase = next;
        deadlineMs = limits.deadlineMs(next, nowMs);
    }
}
