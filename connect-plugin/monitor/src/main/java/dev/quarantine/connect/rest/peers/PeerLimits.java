package dev.quarantine.connect.rest.peers;

import java.time.Duration;

/**
 * The peer listener's bounds, and the decisions made from them: whether another connection is admitted, and until
 * when a connection may stay in its current phase. A deadline is fixed when a phase starts, so a peer that trickles
 * a byte at a time does not extend it.
 *
 * @param headTimeout  from a new connection's accept, or a kept-alive connection's next request's first byte, to the
 *                     end of its headers
 * @param bodyTimeout  from the end of its headers to the end of its body
 * @param idleTimeout  a connection with no request in progress (kept alive after a signed answer)
 * @param writeTimeout for the answer to be taken by the peer
 */
public record PeerLimits(int maxConnections, int maxConnectionsPerAddress, Duration headTimeout, Duration bodyTimeout,
                  Duration idleTimeout, Duration writeTimeout) {

    /** Largest request head (request line and headers) accepted. */
    static final int MAX_HEAD_BYTES = 8 * 1024;
    /** Largest request body accepted (a peer request has none). */
    static final int MAX_BODY_BYTES = 16 * 1024;

    /** Where a connection is. */
    enum Phase { IDLE, HEAD, BODY, HANDLING, WRITING }

    /** What is done with a new connection. */
    enum Admission {
        /** Kept open. */
        ADMIT,
        /**
         * Kept open once the oldest connection that has not completed a request is closed (503) to make room; if
         * every open connection is handling, answering or kept alive after a signed answer, refused.
         */
        MAKE_ROOM,
        /** Answered 503 and closed at once. */
        REFUSE
    }

    /**
     * What is done with a new connection when {@code open} are open already, {@code openFromAddress} of them from its
     * address. The cap per address keeps one host flooding the port from taking the connections the other workers
     * need; when hosts together hold every connection, a new one takes the place of the oldest that has not sent a
     * whole request, so connections that send a byte and then nothing cannot keep a peer's request out: it is read
     * within milliseconds of its accept, while {@code maxConnections} newer connections would have to arrive before
     * it to push it out.
     */
    Admission admission(int open, int openFromAddress) {
        if (openFromAddress >= maxConnectionsPerAddress) {
            return Admission.REFUSE;
        }
        return open < maxConnections ? Admission.ADMIT : Admission.MAKE_ROOM;
    }

    /**
     * Whether a connection in {@code phase} may be closed to make room for a new one: it has not sent a whole
     * request yet (an unproven client, or a peer whose request did not arrive).
     */
    static boolean makesRoom(Phase phase) {
        return phase == Phase.HEAD || phase == Phase.BODY;
    }

    /**
     * When a connection that entered {@code phase} at {@code sinceMs} is closed if still there. While its request is
     * handled there is none: the handler's own deadlines (store waits, {@code max.concurrent.requests}) bound it.
     */
    long deadlineMs(Phase phase, long sinceMs) {
        return switch (phase) {
            case IDLE -> sinceMs + idleTimeout.toMillis();
            case HEAD -> sinceMs + headTimeout.toMillis();
            case BODY -> sinceMs + bodyTimeout.toMillis();
            case HANDLING -> Long.MAX_VALUE;
            case WRITING -> sinceMs + writeTimeout.toMillis();
        };
    }
}
